/* vkCmdBlitImage when it runs: scaled, filtered copies between images with
 * format conversion (the spec's "Image Copies With Scaling"). */
#pragma once

struct vkmm_command;
struct vkmm_execution;

/* Runs a VKMM_COMMAND_BLIT_IMAGE whose regions were checked when it was
 * recorded: reads the source texels each region samples and writes the
 * destination rows, through strict mode's memory engine when it is on. */
void vkmm_blit_execute(struct vkmm_execution *x, const struct vkmm_command *c);
