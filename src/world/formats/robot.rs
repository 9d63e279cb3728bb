//! The robot grid text format: first line `width height`, then `height` lines of `width`
//! space- or tab-separated `0` (free) / `1` (blocked); `[0, 0]` is the top-left cell.

use std::path::Path;

use super::{
    MAX_FILE_BYTES, parse_side, read_text_file, reject_trailing, shorten, strip_bom, words,
};
use crate::error::{Error, Result};
use crate::world::grid::Grid2d;

/// Parses the robot grid format: first line `width height`, then `height` lines of `width`
/// space- or tab-separated `0` (free) / `1` (blocked). Blank lines after the last row are
/// ignored; anything else there is an error.
///
/// ```
/// use voxnav::flat::IVec2;
/// use voxnav::world::parse_robot_grid;
///
/// let grid = parse_robot_grid("3 2\n0\t1 0\n0 0 0\n")?;
/// assert_eq!((grid.width(), grid.height()), (3, 2));
/// assert!(!grid.is_free(IVec2::new(1, 0)));
///
/// let err = parse_robot_grid("3 2\n0 1 0\n0 2 0\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 3, column 3: expected 0 (free) or 1 (blocked), found `2`");
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] naming the line and column: a header that is not two whole numbers from
/// 1 to [`MAX_GRID_SIDE`](crate::world::grid::MAX_GRID_SIDE), a row with too few or too many values, a value other than `0` or
/// `1`, too few rows, or text after the last row.
pub fn parse_robot_grid(text: &str) -> Result<Grid2d> {
    let mut lines = strip_bom(text).lines();
    let header = lines.next().unwrap_or("");
    let fields: Vec<(usize, &str)> = words(header).collect();
    let [(width_column, width_word), (height_column, height_word)] = fields[..] else {
        let column = fields.get(2).map_or(1, |&(column, _)| column);
        return Err(Error::parse(
            1,
            column,
            format!(
                "the first line must be `width height` (two whole numbers), found `{}`",
                shorten(header.trim())
            ),
        ));
    };
    let width = parse_side(1, width_column, "width", width_word)?;
    let height = parse_side(1, height_column, "height", height_word)?;

    // Storage grows with the rows actually read, whatever the header claims.
    let mut blocked = Vec::new();
    for row in 0..height {
        let line = row as usize + 2;
        let Some(text) = lines.next() else {
            return Err(Error::parse(
                line,
                1,
                format!(
                    "the file ends after {row} of the {height} rows the header announces \
                     ({width} wide, {height} high)"
                ),
            ));
        };
        let mut count = 0u32;
        for (column, word) in words(text) {
            if count == width {
                return Err(Error::parse(
                    line,
                    column,
                    format!(
                        "row {} has more than the {width} values the header announces",
                        row + 1
                    ),
                ));
            }
            blocked.push(match word {
                "0" => false,
                "1" => true,
                _ => {
                    return Err(Error::parse(
                        line,
                        column,
                        format!(
                            "expected 0 (free) or 1 (blocked), found `{}`",
                            shorten(word)
                        ),
                    ));
                }
            });
            count += 1;
        }
        if count < width {
            return Err(Error::parse(
                line,
                text.chars().count() + 1,
                format!(
                    "row {} has {count} values, but the header announces {width}",
                    row + 1
                ),
            ));
        }
    }
    reject_trailing(lines, height as usize + 2, height)?;
    Grid2d::from_blocked(width, height, blocked)
}

/// Reads a robot grid file (see [`parse_robot_grid`]), at most
/// [`MAX_FILE_BYTES`] bytes.
///
/// # Errors
/// As [`read_text_file`] and [`parse_robot_grid`].
pub fn load_robot_grid(path: impl AsRef<Path>) -> Result<Grid2d> {
    parse_robot_grid(&read_text_file(path, MAX_FILE_BYTES)?)
}
