/**
 * The Chromium switches the browser operator launches with. Frames of a page that is not changing must be
 * the same pixels every time: the settle watch takes any difference for a change, and dedup stores it.
 */
export const BROWSER_LAUNCH_ARGUMENTS: readonly string[] = [
  // Quiet and reproducible: no background traffic, updates, sync or first-run dialogs.
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  // No GPU: headless and Xvfb have none, and software rendering is the same on every machine.
  '--disable-gpu',
  // Chromium otherwise rasters only a repainted rectangle into its tile's old pixels. Where that rectangle ends
  // inside a neighbour's anti-aliased edge (hiding a focused field's caret before a capture repaints the field,
  // whose repaint can end inside the top rows of a rounded box just under it), the edge comes out a little
  // different from a whole-tile raster: the same still page then gives frames that differ by a few pixels,
  // depending on what was rastered last. Whole tiles are rastered again instead, a little more work per repaint.
  '--disable-partial-raster',
];
