import type { Theme } from '@glideapps/glide-data-grid';

/**
 * The grid's colours in dark mode: it paints on a canvas, which the app's CSS variables do not
 * reach. The same colours as the workbook grid's, so both grids look alike.
 */
export const DARK_GRID_THEME: Partial<Theme> = {
  bgCell: '#171d24',
  bgCellMedium: '#1b222a',
  bgHeader: '#1b222a',
  bgHeaderHasFocus: '#232c37',
  bgHeaderHovered: '#232c37',
  textDark: '#e3e8ee',
  textMedium: '#98a4b3',
  textLight: '#7d8896',
  textHeader: '#e3e8ee',
  borderColor: '#2c3540',
  horizontalBorderColor: '#222a33',
  accentColor: '#4c8dff',
  accentLight: 'rgba(76, 141, 255, 0.2)',
};

/** Cells holding the find's text, and the one the find is on. */
export const MATCH_TINT = 'rgba(250, 204, 21, 0.30)';
export const CURRENT_MATCH_TINT = 'rgba(250, 204, 21, 0.75)';
