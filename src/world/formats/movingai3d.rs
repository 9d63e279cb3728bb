//! The Moving AI 3D voxel benchmark's files (Brewer and Sturtevant, "Benchmarks for
//! Pathfinding in 3D Voxel Space", `SoCS` 2018): `.3dmap` maps and `.3dscen` scenarios.
//!
//! - `.3dmap`: a first line `voxel X Y Z` (the size), then one line `x y z` per **blocked**
//!   voxel; every other voxel inside the size is free. Parsed into a [`DenseWorld`], voxel
//!   `(x, y, z)` at the cell of the same coordinates.
//! - `.3dscen`: a first line `version 1`, a second line naming the map file, then one problem
//!   per line: `sx sy sz gx gy gz optimal_cost ratio` (the ratio is the cost divided by the
//!   3D octile distance).
//!
//! The optimal costs assume an agent of one voxel that moves to any of its 26 neighbours
//! without cutting an edge or a corner, paying 1, sqrt 2 or sqrt 3 per face, edge or corner
//! step: a flier of height 1 ([`crate::Agent::flier`]) under the rules of
//! [`crate::moves::fly`].
//!
//! Errors are [`Error::Parse`] with a 1-based line and column, quoting at most 40 characters
//! of the offending text; a map claiming a size beyond [`crate::world::dense::MAX_DENSE_BYTES`]
//! is refused before anything is allocated.

use glam::IVec3;

use super::{MAX_FILE_BYTES, read_text_file, shorten, strip_bom};
use crate::error::{Error, Result};
use crate::world::dense::DenseWorld;

/// One problem of a `.3dscen` file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VoxelScenario {
    /// The 1-based line of the file it came from.
    pub line: usize,
    /// The start voxel.
    pub start: IVec3,
    /// The goal voxel.
    pub goal: IVec3,
    /// The optimal cost (face 1, edge sqrt 2, corner sqrt 3).
    pub optimal: f64,
    /// The optimal cost divided by the 3D octile distance, as given.
    pub ratio: f64,
}

/// A parsed `.3dscen` file.
#[derive(Debug, Clone, PartialEq)]
pub struct VoxelScenarios {
    /// The map file named on the second line.
    pub map: String,
    /// The problems, in file order.
    pub scenarios: Vec<VoxelScenario>,
}

/// The whitespace-separated words of `line`, each with its 1-based character column.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (column, (byte, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((column + 1, byte)),
            (true, Some((col, from))) => {
                out.push((col, &line[from..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col, from)) = start {
        out.push((col, &line[from..]));
    }
    out
}

/// Exactly `N` words on line `line`, or an error naming what was expected.
fn fields<'a, const N: usize>(
    line: usize,
    text: &'a str,
    expected: &str,
) -> Result<[(usize, &'a str); N]> {
    let found = words(text);
    if found.len() > N {
        let (column, word) = found[N];
        return Err(Error::parse(
            line,
            column,
            format!("unexpected `{}` after {expected}", shorten(word)),
        ));
    }
    found.try_into().map_err(|found: Vec<_>| {
        Error::parse(
            line,
            1,
            format!(
                "expected {expected}, found {} of {N} fields in `{}`",
                found.len(),
                shorten(text.trim())
            ),
        )
    })
}

fn parse_coordinate(line: usize, (column, word): (usize, &str), name: &str) -> Result<i32> {
    word.parse::<i32>().map_err(|_| {
        Error::parse(
            line,
            column,
            format!("{name} must be an integer, found `{}`", shorten(word)),
        )
    })
}

fn parse_number(line: usize, (column, word): (usize, &str), name: &str) -> Result<f64> {
    word.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite() && *value >= 0.0)
        .ok_or_else(|| {
            Error::parse(
                line,
                column,
                format!(
                    "{name} must be a non-negative number, found `{}`",
                    shorten(word)
                ),
            )
        })
}

/// Parses a `.3dmap` file into a [`DenseWorld`].
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::VoxelWorld;
/// use voxnav::world::parse_movingai_3dmap;
///
/// let world = parse_movingai_3dmap("voxel 3 2 3\n1 0 1\n1 1 1\n")?;
/// assert_eq!(world.size(), IVec3::new(3, 2, 3));
/// assert!(!world.is_passable(IVec3::new(1, 1, 1)));
/// assert_eq!(world.free_cells(), 16);
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] for a missing or malformed header, a size that is not positive or too
/// large ([`crate::world::dense::MAX_DENSE_BYTES`]), a voxel line that is not three
/// integers, or a voxel outside the size.
pub fn parse_movingai_3dmap(text: &str) -> Result<DenseWorld> {
    let mut lines = strip_bom(text).lines().enumerate().map(|(i, l)| (i + 1, l));
    let (line, header) = lines
        .next()
        .ok_or_else(|| Error::parse(1, 1, "empty file: expected `voxel X Y Z`"))?;
    let [keyword, x, y, z] = fields::<4>(line, header, "`voxel X Y Z`")?;
    if keyword.1 != "voxel" {
        return Err(Error::parse(
            line,
            keyword.0,
            format!(
                "the first line must be `voxel X Y Z`, found `{}`",
                shorten(keyword.1)
            ),
        ));
    }
    let size = IVec3::new(
        parse_coordinate(line, x, "the size along x")?,
        parse_coordinate(line, y, "the size along y")?,
        parse_coordinate(line, z, "the size along z")?,
    );
    DenseWorld::check_size(size).map_err(|e| {
        let message = match e {
            Error::InvalidSetting(message) => message,
            other => other.to_string(),
        };
        Error::parse(line, 1, message)
    })?;
    let mut world = DenseWorld::new(size)?;
    for (line, text) in lines {
        if text.trim().is_empty() {
            continue;
        }
        let [x, y, z] = fields::<3>(line, text, "a blocked voxel `x y z`")?;
        let voxel = IVec3::new(
            parse_coordinate(line, x, "x")?,
            parse_coordinate(line, y, "y")?,
            parse_coordinate(line, z, "z")?,
        );
        world.set_blocked(voxel, true).map_err(|_| {
            Error::parse(
                line,
                x.0,
                format!(
                    "voxel {} {} {} is outside the map of {} x {} x {}",
                    voxel.x, voxel.y, voxel.z, size.x, size.y, size.z
                ),
            )
        })?;
    }
    Ok(world)
}

/// Parses a `.3dscen` file.
///
/// ```
/// use voxnav::IVec3;
/// use voxnav::world::parse_movingai_3dscen;
///
/// let file = parse_movingai_3dscen("version 1\nSimple.3dmap\n0 0 0 2 1 0 2.41421356 1.000\n")?;
/// assert_eq!(file.map, "Simple.3dmap");
/// assert_eq!(file.scenarios[0].goal, IVec3::new(2, 1, 0));
/// assert_eq!(file.scenarios[0].line, 3);
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] when the first line is not `version 1`, the map line is missing, or a
/// problem line is not six integers and two non-negative numbers.
pub fn parse_movingai_3dscen(text: &str) -> Result<VoxelScenarios> {
    let mut lines = strip_bom(text).lines().enumerate().map(|(i, l)| (i + 1, l));
    let (line, header) = lines
        .next()
        .ok_or_else(|| Error::parse(1, 1, "empty file: expected `version 1`"))?;
    let [keyword, version] = fields::<2>(line, header, "`version 1`")?;
    if keyword.1 != "version" || version.1 != "1" {
        return Err(Error::parse(
            line,
            1,
            format!(
                "the first line must be `version 1`, found `{}`",
                shorten(header.trim())
            ),
        ));
    }
    let (line, map) = lines
        .next()
        .ok_or_else(|| Error::parse(2, 1, "expected the map's file name on line 2"))?;
    let map = map.trim();
    if map.is_empty() {
        return Err(Error::parse(
            line,
            1,
            "expected the map's file name on line 2",
        ));
    }
    let mut scenarios = Vec::new();
    for (line, text) in lines {
        if text.trim().is_empty() {
            continue;
        }
        let [sx, sy, sz, gx, gy, gz, optimal, ratio] =
            fields::<8>(line, text, "`sx sy sz gx gy gz cost ratio`")?;
        scenarios.push(VoxelScenario {
            line,
            start: IVec3::new(
                parse_coordinate(line, sx, "sx")?,
                parse_coordinate(line, sy, "sy")?,
                parse_coordinate(line, sz, "sz")?,
            ),
            goal: IVec3::new(
                parse_coordinate(line, gx, "gx")?,
                parse_coordinate(line, gy, "gy")?,
                parse_coordinate(line, gz, "gz")?,
            ),
            optimal: parse_number(line, optimal, "the optimal cost")?,
            ratio: parse_number(line, ratio, "the ratio")?,
        });
    }
    Ok(VoxelScenarios {
        map: map.to_owned(),
        scenarios,
    })
}

/// Reads a Moving AI `.3dmap` file (see [`parse_movingai_3dmap`]), at most
/// [`MAX_FILE_BYTES`] bytes.
///
/// # Errors
/// As [`read_text_file`] and [`parse_movingai_3dmap`].
pub fn load_movingai_3dmap(path: impl AsRef<std::path::Path>) -> Result<DenseWorld> {
    parse_movingai_3dmap(&read_text_file(path, MAX_FILE_BYTES)?)
}

/// Reads a Moving AI `.3dscen` file (see [`parse_movingai_3dscen`]), at most
/// [`MAX_FILE_BYTES`] bytes.
///
/// # Errors
/// As [`read_text_file`] and [`parse_movingai_3dscen`].
pub fn load_movingai_3dscen(path: impl AsRef<std::path::Path>) -> Result<VoxelScenarios> {
    parse_movingai_3dscen(&read_text_file(path, MAX_FILE_BYTES)?)
}

/// The length of a flier's route of unit steps: 1, sqrt 2 or sqrt 3 per step by the number
/// of axes it changes. `None` when two consecutive positions are not neighbours.
#[must_use]
pub fn voxel_route_length(path: &[IVec3]) -> Option<f64> {
    let mut length = 0.0;
    for pair in path.windows(2) {
        let d = (pair[1] - pair[0]).abs();
        if d.max_element() != 1 {
            return None;
        }
        length += match d.x + d.y + d.z {
            1 => 1.0,
            2 => std::f64::consts::SQRT_2,
            _ => 3f64.sqrt(),
        };
    }
    Some(length)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_lengths_count_face_edge_and_corner_steps() {
        let path = [
            IVec3::ZERO,
            IVec3::X,
            IVec3::new(2, 1, 0),
            IVec3::new(3, 2, 1),
        ];
        let length = voxel_route_length(&path).unwrap();
        assert!((length - (1.0 + 2f64.sqrt() + 3f64.sqrt())).abs() < 1e-12);
        assert_eq!(
            voxel_route_length(&[IVec3::ZERO, IVec3::new(2, 0, 0)]),
            None
        );
    }
}
