//! The Moving AI 2D benchmark formats: `.map` (`type octile`, `height H`, `width W`, `map`,
//! then `H` rows of `W` characters; `.`, `G` and `S` are passable, everything else blocked) and
//! `.scen` (`version 1`, then one scenario per line: bucket, map, map width, map height, start x,
//! start y, goal x, goal y, optimal length with diagonal steps of length sqrt 2).

use glam::IVec2;

use std::path::Path;

use super::{
    MAX_FILE_BYTES, parse_side, read_text_file, reject_trailing, shorten, strip_bom, words,
};
use crate::error::{Error, Result};
use crate::world::grid::{Grid2d, MAX_GRID_SIDE};

/// Parses a Moving AI `.map` file: `type octile`, `height H` and `width W` (either order),
/// `map`, then `H` rows of exactly `W` characters. `.`, `G` and `S` are passable, every other
/// character is blocked. Blank lines after the last row are ignored.
///
/// ```
/// use voxnav::flat::IVec2;
/// use voxnav::world::parse_movingai_map;
///
/// let grid = parse_movingai_map("type octile\nheight 2\nwidth 3\nmap\n.@G\nT.S\n")?;
/// assert_eq!(grid.free_cells(), 4);
/// assert!(!grid.is_free(IVec2::new(0, 1)));
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] naming the line: a missing or wrong header line, a type other than
/// `octile`, sizes that are not whole numbers from 1 to [`MAX_GRID_SIDE`], a row of the wrong
/// length, too few rows, or text after the last row.
pub fn parse_movingai_map(text: &str) -> Result<Grid2d> {
    let mut lines = strip_bom(text).lines();
    let mut line = 0usize;
    let mut next_header = |expected: &str| -> Result<(usize, Vec<(usize, &str)>)> {
        line += 1;
        let text = lines.next().ok_or_else(|| {
            Error::parse(
                line,
                1,
                format!("the file ends before the header line `{expected}`"),
            )
        })?;
        Ok((line, words(text).collect()))
    };

    let (at, fields) = next_header("type octile")?;
    match fields[..] {
        [(_, "type"), (_, "octile")] => {}
        [(_, "type"), (column, other)] => {
            return Err(Error::parse(
                at,
                column,
                format!(
                    "only `type octile` maps are supported, found `type {}`",
                    shorten(other)
                ),
            ));
        }
        _ => {
            return Err(Error::parse(at, 1, "the first line must be `type octile`"));
        }
    }
    let mut width = None;
    let mut height = None;
    for _ in 0..2 {
        let (at, fields) = next_header("height H` or `width W")?;
        match fields[..] {
            [(_, "height"), (column, word)] if height.is_none() => {
                height = Some(parse_side(at, column, "height", word)?);
            }
            [(_, "width"), (column, word)] if width.is_none() => {
                width = Some(parse_side(at, column, "width", word)?);
            }
            _ => {
                let wanted = match (height, width) {
                    (None, None) => "`height H` or `width W`",
                    (None, Some(_)) => "`height H`",
                    _ => "`width W`",
                };
                return Err(Error::parse(at, 1, format!("expected {wanted}")));
            }
        }
    }
    let (at, fields) = next_header("map")?;
    if !matches!(fields[..], [(_, "map")]) {
        return Err(Error::parse(
            at,
            1,
            "expected `map` after the height and width",
        ));
    }
    let (Some(width), Some(height)) = (width, height) else {
        return Err(Error::parse(
            at,
            1,
            "the header needs both `height H` and `width W`",
        ));
    };

    let mut blocked = Vec::new();
    for row in 0..height {
        let line = row as usize + 5;
        let Some(text) = lines.next() else {
            return Err(Error::parse(
                line,
                1,
                format!("the file ends after {row} of the {height} map rows"),
            ));
        };
        let before = blocked.len();
        for cell in text.chars() {
            if blocked.len() - before == width as usize {
                return Err(Error::parse(
                    line,
                    width as usize + 1,
                    format!(
                        "map row {} is longer than the width {width} ({} characters)",
                        row + 1,
                        text.chars().count()
                    ),
                ));
            }
            blocked.push(!matches!(cell, '.' | 'G' | 'S'));
        }
        let found = blocked.len() - before;
        if found < width as usize {
            return Err(Error::parse(
                line,
                found + 1,
                format!(
                    "map row {} has {found} characters, but the width is {width}",
                    row + 1
                ),
            ));
        }
    }
    reject_trailing(lines, height as usize + 5, height)?;
    Grid2d::from_blocked(width, height, blocked)
}

/// One Moving AI scenario: a query with its optimal length.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The line of the `.scen` file it came from (1-based).
    pub line: usize,
    /// The bucket (scenarios of similar length share one).
    pub bucket: u32,
    /// The map's name as written in the file (often a path like `maps/dao/arena.map`).
    pub map: String,
    /// The map width the scenario expects.
    pub map_width: u32,
    /// The map height the scenario expects.
    pub map_height: u32,
    /// The start cell.
    pub start: IVec2,
    /// The goal cell.
    pub goal: IVec2,
    /// The optimal octile length (straight steps 1, diagonal steps sqrt 2).
    pub optimal_length: f64,
}

/// Parses a Moving AI `.scen` file: `version 1` (or `version 1.0`), then one scenario per
/// line, 9 tab-separated fields: bucket, map, map width, map height, start x, start y, goal x,
/// goal y, optimal length. Blank lines are ignored.
///
/// ```
/// use voxnav::flat::IVec2;
/// use voxnav::world::parse_movingai_scen;
///
/// let scenarios = parse_movingai_scen("version 1\n0\tmaps/a.map\t3\t2\t0\t0\t2\t1\t2.41421\n")?;
/// assert_eq!(scenarios[0].goal, IVec2::new(2, 1));
/// assert_eq!(scenarios[0].line, 2);
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] naming the line and column: a missing or unsupported version line, a row
/// without exactly 9 fields, a field that is not a number of the right kind (coordinates
/// below [`MAX_GRID_SIDE`], a finite non-negative length).
pub fn parse_movingai_scen(text: &str) -> Result<Vec<Scenario>> {
    let mut lines = strip_bom(text).lines();
    let header: Vec<(usize, &str)> = words(lines.next().unwrap_or("")).collect();
    match header[..] {
        [(_, "version"), (_, "1" | "1.0")] => {}
        [(_, "version"), (column, other)] => {
            return Err(Error::parse(
                1,
                column,
                format!(
                    "only scenario files of `version 1` are supported, found `{}`",
                    shorten(other)
                ),
            ));
        }
        _ => {
            return Err(Error::parse(1, 1, "the first line must be `version 1`"));
        }
    }
    let mut scenarios = Vec::new();
    for (offset, text) in lines.enumerate() {
        let line = offset + 2;
        if text.trim().is_empty() {
            continue;
        }
        scenarios.push(parse_scenario(line, text)?);
    }
    Ok(scenarios)
}

fn parse_scenario(line: usize, text: &str) -> Result<Scenario> {
    // Fields are tab-separated (a map name could hold spaces); without tabs, any whitespace.
    let fields: Vec<(usize, &str)> = if text.contains('\t') {
        let mut column = 1;
        text.split('\t')
            .map(|field| {
                let at = column;
                column += field.chars().count() + 1;
                (at, field.trim())
            })
            .collect()
    } else {
        words(text).collect()
    };
    if fields.len() != 9 {
        return Err(Error::parse(
            line,
            1,
            format!(
                "a scenario has 9 fields (bucket, map, map width, map height, start x, start y, \
                 goal x, goal y, optimal length), found {}",
                fields.len()
            ),
        ));
    }
    let number = |index: usize, name: &str| -> Result<u32> {
        let (column, word) = fields[index];
        match word.parse::<u32>() {
            Ok(value) if value < MAX_GRID_SIDE => Ok(value),
            _ => Err(Error::parse(
                line,
                column,
                format!(
                    "the {name} must be a whole number below {MAX_GRID_SIDE}, found `{}`",
                    shorten(word)
                ),
            )),
        }
    };
    let (length_column, length_word) = fields[8];
    let optimal_length = match length_word.parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => value,
        _ => {
            return Err(Error::parse(
                line,
                length_column,
                format!(
                    "the optimal length must be a non-negative number, found `{}`",
                    shorten(length_word)
                ),
            ));
        }
    };
    Ok(Scenario {
        line,
        bucket: number(0, "bucket")?,
        map: fields[1].1.to_string(),
        map_width: number(2, "map width")?,
        map_height: number(3, "map height")?,
        start: IVec2::new(number(4, "start x")? as i32, number(5, "start y")? as i32),
        goal: IVec2::new(number(6, "goal x")? as i32, number(7, "goal y")? as i32),
        optimal_length,
    })
}

/// Reads a Moving AI `.map` file (see [`parse_movingai_map`]), at most
/// [`MAX_FILE_BYTES`] bytes.
///
/// # Errors
/// As [`read_text_file`] and [`parse_movingai_map`].
pub fn load_movingai_map(path: impl AsRef<Path>) -> Result<Grid2d> {
    parse_movingai_map(&read_text_file(path, MAX_FILE_BYTES)?)
}

/// Reads a Moving AI `.scen` file (see [`parse_movingai_scen`]), at most
/// [`MAX_FILE_BYTES`] bytes.
///
/// # Errors
/// As [`read_text_file`] and [`parse_movingai_scen`].
pub fn load_movingai_scen(path: impl AsRef<Path>) -> Result<Vec<Scenario>> {
    parse_movingai_scen(&read_text_file(path, MAX_FILE_BYTES)?)
}
