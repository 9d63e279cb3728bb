//! Flat worlds: 2D grids (robot grids, Moving AI benchmark maps) through the same A*.
//!
//! A 2D grid is the flat-world special case of the voxel engine. [`FlatWorld`] turns a
//! [`Grid2d`] into a [`VoxelWorld`]: every free cell `(x, y)` becomes the column
//! `(x, z = y)` with a solid floor at world y = 0 and air above it; a blocked cell becomes a
//! wall filling its column to the top of the world, which is exactly `agent height + 1`
//! cells tall, so no wall can be climbed and no floor dropped from. The walking rules of
//! [`crate::moves`] then give the 4-connected grid with diagonals off and the 8-connected
//! grid without corner cutting (the Moving AI convention) with diagonals on.
//!
//! [`GridPlanner`] wraps a [`FlatWorld`] and a [`Pathfinder`] and answers in 2D: cells,
//! [`Action`]s (`U D L R`, and `UL UR DL DR` for diagonals) and octile lengths.
//!
//! ```
//! use voxnav::IVec2;
//! use voxnav::grid2d::{GridPlanner, format_actions, parse_robot_grid};
//!
//! // The robot assignment's example: [0, 0] is the top-left cell.
//! let grid = parse_robot_grid("5 3\n0 0 1 0 0\n1 0 1 0 0\n0 0 0 0 1\n")?;
//! let mut planner = GridPlanner::robot(grid, false)?;
//! let route = planner.plan(IVec2::new(0, 2), IVec2::new(4, 1))?;
//! assert_eq!(format_actions(&route.actions), "R R R U R");
//! # Ok::<(), voxnav::Error>(())
//! ```
//!
//! The text formats:
//!
//! - **Robot grid** ([`parse_robot_grid`]): first line `width height`, then `height` lines of
//!   `width` space- or tab-separated `0` (free) / `1` (blocked).
//! - **Moving AI map** ([`parse_movingai_map`]): `type octile`, `height H`, `width W`, `map`,
//!   then `H` rows of `W` characters; `.`, `G` and `S` are passable, everything else blocked.
//! - **Moving AI scenarios** ([`parse_movingai_scen`]): `version 1`, then one scenario per
//!   line: bucket, map, map width, map height, start x, start y, goal x, goal y, optimal
//!   length (diagonal steps of length sqrt 2).

use std::fmt;
use std::time::Duration;

use glam::{IVec2, IVec3};

use crate::agent::{Agent, MAX_AGENT_SPAN, MoveCosts};
use crate::error::{Error, Result};
use crate::search::{Pathfinder, SearchOptions, SearchStats, SearchStatus};
use crate::world::{AROUND, Bounds, ColumnBits, VoxelWorld};

/// The largest width or height a grid may have: 2^20 cells per side. Larger headers are an
/// error, so a file cannot ask for absurd amounts of memory.
pub const MAX_GRID_SIDE: u32 = 1 << 20;

/// A rectangular 2D grid of free and blocked cells; `(0, 0)` is the top-left cell, x grows
/// to the right and y downwards.
///
/// ```
/// use voxnav::IVec2;
/// use voxnav::grid2d::Grid2d;
///
/// // 3 wide, 2 high; the middle of the top row is blocked.
/// let grid = Grid2d::from_blocked(3, 2, vec![false, true, false, false, false, false])?;
/// assert!(!grid.is_free(IVec2::new(1, 0)));
/// assert!(grid.is_free(IVec2::new(1, 1)));
/// assert!(!grid.is_free(IVec2::new(3, 0))); // outside
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid2d {
    width: u32,
    height: u32,
    /// Row-major: cell `(x, y)` at `y * width + x`.
    blocked: Vec<bool>,
}

impl Grid2d {
    /// A grid from its cells, row by row from the top (`blocked[y * width + x]` is `true` for
    /// a blocked cell).
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `width` or `height` is 0 or more than
    /// [`MAX_GRID_SIDE`], or `blocked` does not hold `width * height` cells.
    pub fn from_blocked(width: u32, height: u32, blocked: Vec<bool>) -> Result<Self> {
        check_side("width", width).map_err(Error::InvalidSetting)?;
        check_side("height", height).map_err(Error::InvalidSetting)?;
        let cells = width as usize * height as usize;
        if blocked.len() != cells {
            return Err(Error::InvalidSetting(format!(
                "a {width}x{height} grid has {cells} cells, but {} were given",
                blocked.len()
            )));
        }
        Ok(Self {
            width,
            height,
            blocked,
        })
    }

    /// The number of columns.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `cell` lies inside the grid.
    #[inline]
    #[must_use]
    pub fn contains(&self, cell: IVec2) -> bool {
        (cell.x as u32) < self.width && (cell.y as u32) < self.height
    }

    /// Whether `cell` is inside the grid and free. Cells outside are not free.
    #[inline]
    #[must_use]
    pub fn is_free(&self, cell: IVec2) -> bool {
        self.state(cell.x, cell.y) == Some(false)
    }

    /// The number of free cells.
    #[must_use]
    pub fn free_cells(&self) -> usize {
        self.blocked.iter().filter(|&&b| !b).count()
    }

    /// `Some(true)` for a blocked cell, `Some(false)` for a free one, `None` outside.
    #[inline]
    fn state(&self, x: i32, y: i32) -> Option<bool> {
        if (x as u32) < self.width && (y as u32) < self.height {
            Some(self.blocked[y as usize * self.width as usize + x as usize])
        } else {
            None
        }
    }

    /// Checks that `cell` can be a start or goal: inside the grid and free.
    ///
    /// # Errors
    /// [`Error::InvalidCell`] naming `role` (`"start"` or `"goal"`) and the problem.
    pub fn check_cell(&self, role: &'static str, cell: IVec2) -> Result<()> {
        let problem = match self.state(cell.x, cell.y) {
            Some(false) => return Ok(()),
            Some(true) => "is blocked".to_string(),
            None => format!(
                "is outside the {}x{} grid (x must be 0 to {}, y 0 to {})",
                self.width,
                self.height,
                self.width - 1,
                self.height - 1
            ),
        };
        Err(Error::InvalidCell {
            role,
            cell,
            problem,
        })
    }
}

fn check_side(name: &str, value: u32) -> std::result::Result<(), String> {
    if value == 0 {
        Err(format!("the grid {name} must be at least 1"))
    } else if value > MAX_GRID_SIDE {
        Err(format!(
            "the grid {name} {value} is larger than the supported {MAX_GRID_SIDE}"
        ))
    } else {
        Ok(())
    }
}

/// The whitespace-separated words of `line`, each with its 1-based character column.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    // (character index, (byte index, character)): columns are counted as we go, so a long
    // row costs linear time.
    let mut rest = line.char_indices().enumerate().peekable();
    std::iter::from_fn(move || {
        while rest.next_if(|(_, (_, c))| c.is_whitespace()).is_some() {}
        let &(index, (start, _)) = rest.peek()?;
        let mut end = line.len();
        while let Some(&(_, (byte, c))) = rest.peek() {
            if c.is_whitespace() {
                end = byte;
                break;
            }
            rest.next();
        }
        Some((index + 1, &line[start..end]))
    })
}

/// `text` for an error message: at most 40 characters, marked when cut.
fn shorten(text: &str) -> String {
    const LIMIT: usize = 40;
    match text.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Parses a grid side from the word `word` at `line`, `column`.
fn parse_side(line: usize, column: usize, name: &str, word: &str) -> Result<u32> {
    let value: u32 = word.parse().map_err(|_| {
        Error::parse(
            line,
            column,
            format!(
                "the {name} must be a whole number, found `{}`",
                shorten(word)
            ),
        )
    })?;
    check_side(name, value).map_err(|message| Error::parse(line, column, message))?;
    Ok(value)
}

/// Fails at the first non-blank line among `lines` (numbered from `first_line`): text after
/// the last row.
fn reject_trailing<'a>(
    lines: impl Iterator<Item = &'a str>,
    first_line: usize,
    rows: u32,
) -> Result<()> {
    for (offset, text) in lines.enumerate() {
        if let Some((column, _)) = words(text).next() {
            return Err(Error::parse(
                first_line + offset,
                column,
                format!("unexpected text after the last of the {rows} rows the header announces"),
            ));
        }
    }
    Ok(())
}

/// Parses the robot grid format: first line `width height`, then `height` lines of `width`
/// space- or tab-separated `0` (free) / `1` (blocked). Blank lines after the last row are
/// ignored; anything else there is an error.
///
/// ```
/// use voxnav::IVec2;
/// use voxnav::grid2d::parse_robot_grid;
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
/// 1 to [`MAX_GRID_SIDE`], a row with too few or too many values, a value other than `0` or
/// `1`, too few rows, or text after the last row.
pub fn parse_robot_grid(text: &str) -> Result<Grid2d> {
    let mut lines = text.lines();
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

/// Parses a Moving AI `.map` file: `type octile`, `height H` and `width W` (either order),
/// `map`, then `H` rows of exactly `W` characters. `.`, `G` and `S` are passable, every other
/// character is blocked. Blank lines after the last row are ignored.
///
/// ```
/// use voxnav::IVec2;
/// use voxnav::grid2d::parse_movingai_map;
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
    let mut lines = text.lines();
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
/// use voxnav::IVec2;
/// use voxnav::grid2d::parse_movingai_scen;
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
    let mut lines = text.lines();
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

/// A [`Grid2d`] seen as a voxel world (DESIGN section 5).
///
/// The free cell `(x, y)` is the column `(x, z = y)`: a solid floor at world y = 0 and
/// `agent height` cells of air above it, so the agent stands at feet height 1
/// ([`FlatWorld::feet`]). A blocked cell is solid from y = 0 to the top. The world is
/// exactly `agent height + 1` cells tall and finite: nothing outside [`VoxelWorld::bounds`]
/// is passable or standable, so walls can neither be climbed nor stood on.
///
/// ```
/// use voxnav::{IVec2, IVec3, VoxelWorld};
/// use voxnav::grid2d::{FlatWorld, parse_robot_grid};
///
/// let world = FlatWorld::new(parse_robot_grid("2 1\n0 1\n")?, 2)?;
/// assert_eq!(FlatWorld::feet(IVec2::new(0, 0)), IVec3::new(0, 1, 0));
/// assert!(world.is_standable(IVec3::new(0, 0, 0)));
/// assert!(world.is_passable(IVec3::new(0, 2, 0)));
/// assert!(!world.is_passable(IVec3::new(1, 1, 0)));
/// assert_eq!(world.bounds().map(|b| b.max), Some(IVec3::new(2, 3, 1)));
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FlatWorld {
    grid: Grid2d,
    /// The world's height in cells: agent height + 1.
    top: i32,
}

impl FlatWorld {
    /// The flat world of `grid` for an agent `agent_height` cells tall.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `agent_height` is 0 or more than
    /// [`MAX_AGENT_SPAN`].
    pub fn new(grid: Grid2d, agent_height: u32) -> Result<Self> {
        if agent_height == 0 || agent_height > MAX_AGENT_SPAN {
            return Err(Error::InvalidSetting(format!(
                "agent height must be 1 to {MAX_AGENT_SPAN}, found {agent_height}"
            )));
        }
        Ok(Self {
            grid,
            top: agent_height as i32 + 1,
        })
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid2d {
        &self.grid
    }

    /// The feet position of the agent standing in `cell`: `(x, 1, z = y)`.
    #[inline]
    #[must_use]
    pub const fn feet(cell: IVec2) -> IVec3 {
        IVec3::new(cell.x, 1, cell.y)
    }

    /// The grid cell of a feet position: `(x, y = z)`.
    #[inline]
    #[must_use]
    pub const fn cell(feet: IVec3) -> IVec2 {
        IVec2::new(feet.x, feet.z)
    }
}

impl FlatWorld {
    /// The window `y0 .. y0 + count` of a free column (a floor at y = 0, air above it) and of
    /// a blocked one (a wall from the ground to the top of the world).
    #[inline]
    fn column_kinds(&self, y0: i32, count: u32) -> [ColumnBits; 2] {
        let top = i64::from(self.top);
        [
            ColumnBits {
                passable: window_bits(y0, count, 1, top),
                standable: window_bits(y0, count, 0, 1),
            },
            ColumnBits {
                passable: 0,
                standable: window_bits(y0, count, 0, top),
            },
        ]
    }
}

impl VoxelWorld for FlatWorld {
    #[inline]
    fn is_passable(&self, p: IVec3) -> bool {
        p.y >= 1 && p.y < self.top && self.grid.state(p.x, p.z) == Some(false)
    }

    #[inline]
    fn is_standable(&self, p: IVec3) -> bool {
        p.y >= 0
            && p.y < self.top
            && self
                .grid
                .state(p.x, p.z)
                .is_some_and(|blocked| blocked || p.y == 0)
    }

    /// One grid lookup answers the whole column.
    #[inline]
    fn column(&self, x: i32, z: i32, y0: i32, count: u32) -> ColumnBits {
        let [free, wall] = self.column_kinds(y0, count);
        match self.grid.state(x, z) {
            None => ColumnBits::default(),
            Some(false) => free,
            Some(true) => wall,
        }
    }

    /// One grid lookup per column, the bit patterns computed once.
    #[inline]
    fn columns_around(&self, x: i32, z: i32, y0: i32, count: u32) -> [ColumnBits; 9] {
        let [free, wall] = self.column_kinds(y0, count);
        std::array::from_fn(|i| {
            let (dx, dz) = AROUND[i];
            match self.grid.state(x + dx, z + dz) {
                None => ColumnBits::default(),
                Some(false) => free,
                Some(true) => wall,
            }
        })
    }

    #[inline]
    fn bounds(&self) -> Option<Bounds> {
        Some(Bounds::from_size(IVec3::new(
            self.grid.width as i32,
            self.top,
            self.grid.height as i32,
        )))
    }
}

/// The bits of the cells `lo..hi` (world heights) inside the window of `count` cells from
/// `y0` upward: bit `i` stands for height `y0 + i`.
#[inline]
fn window_bits(y0: i32, count: u32, lo: i64, hi: i64) -> u64 {
    let below = |n: i64| -> u64 {
        match n {
            ..=0 => 0,
            64.. => u64::MAX,
            n => (1u64 << n) - 1,
        }
    };
    let count = i64::from(count.min(64));
    let start = (lo - i64::from(y0)).clamp(0, count);
    let end = (hi - i64::from(y0)).clamp(0, count);
    below(end) & !below(start)
}

/// One step on a 2D grid: `U` is y - 1, `D` y + 1, `L` x - 1, `R` x + 1, and the diagonals
/// combine them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `U`: y - 1.
    Up,
    /// `D`: y + 1.
    Down,
    /// `L`: x - 1.
    Left,
    /// `R`: x + 1.
    Right,
    /// `UL`: x - 1, y - 1.
    UpLeft,
    /// `UR`: x + 1, y - 1.
    UpRight,
    /// `DL`: x - 1, y + 1.
    DownLeft,
    /// `DR`: x + 1, y + 1.
    DownRight,
}

impl Action {
    /// All 8 actions, the 4 straight ones first.
    pub const ALL: [Action; 8] = [
        Action::Up,
        Action::Down,
        Action::Left,
        Action::Right,
        Action::UpLeft,
        Action::UpRight,
        Action::DownLeft,
        Action::DownRight,
    ];

    /// How the action changes the cell.
    #[must_use]
    pub const fn delta(self) -> IVec2 {
        match self {
            Action::Up => IVec2::new(0, -1),
            Action::Down => IVec2::new(0, 1),
            Action::Left => IVec2::new(-1, 0),
            Action::Right => IVec2::new(1, 0),
            Action::UpLeft => IVec2::new(-1, -1),
            Action::UpRight => IVec2::new(1, -1),
            Action::DownLeft => IVec2::new(-1, 1),
            Action::DownRight => IVec2::new(1, 1),
        }
    }

    /// The action that moves from `from` to `to`, if they are neighbours (8-connected).
    #[must_use]
    pub fn between(from: IVec2, to: IVec2) -> Option<Action> {
        let delta = to - from;
        Action::ALL.into_iter().find(|a| a.delta() == delta)
    }

    /// Whether the action is one of the 4 diagonals.
    #[must_use]
    pub const fn is_diagonal(self) -> bool {
        let d = self.delta();
        d.x != 0 && d.y != 0
    }

    /// `"U"`, `"D"`, `"L"`, `"R"`, `"UL"`, `"UR"`, `"DL"` or `"DR"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Action::Up => "U",
            Action::Down => "D",
            Action::Left => "L",
            Action::Right => "R",
            Action::UpLeft => "UL",
            Action::UpRight => "UR",
            Action::DownLeft => "DL",
            Action::DownRight => "DR",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The actions separated by single spaces (`"R D D R"`); empty for no actions.
#[must_use]
pub fn format_actions(actions: &[Action]) -> String {
    actions
        .iter()
        .map(|a| a.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The octile length of `actions`: 1 per straight step, sqrt 2 per diagonal step.
#[must_use]
pub fn octile_length(actions: &[Action]) -> f64 {
    let diagonal = actions.iter().filter(|a| a.is_diagonal()).count();
    let straight = actions.len() - diagonal;
    straight as f64 + diagonal as f64 * std::f64::consts::SQRT_2
}

/// A route on a 2D grid.
#[derive(Debug, Clone, PartialEq)]
pub struct GridRoute {
    /// [`SearchStatus::Found`] or [`SearchStatus::Unreachable`] (a grid is finite and the
    /// planner sets no budget).
    pub status: SearchStatus,
    /// The cells from start to goal, both included; empty when unreachable.
    pub cells: Vec<IVec2>,
    /// The actions leading from each cell to the next.
    pub actions: Vec<Action>,
    /// The route's cost in the planner's [`MoveCosts`]; `None` when unreachable.
    pub cost: Option<u64>,
    /// The search's counters.
    pub stats: SearchStats,
}

impl GridRoute {
    /// Whether the goal was reached.
    #[must_use]
    pub fn is_found(&self) -> bool {
        self.status == SearchStatus::Found
    }

    /// The octile length of the route computed from its moves (see [`octile_length`]).
    #[must_use]
    pub fn octile_length(&self) -> f64 {
        octile_length(&self.actions)
    }
}

/// Plans routes on one 2D grid through the voxel engine's A* ([`Pathfinder`] on a
/// [`FlatWorld`]), reusing its search state between queries.
#[derive(Debug, Clone)]
pub struct GridPlanner {
    world: FlatWorld,
    pathfinder: Pathfinder,
}

impl GridPlanner {
    /// A planner on `grid` for the default agent, with 8-connected moves without corner
    /// cutting when `diagonals` is on, 4-connected moves otherwise, at `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `costs` are out of range ([`MoveCosts::validate`]).
    pub fn new(grid: Grid2d, diagonals: bool, costs: MoveCosts) -> Result<Self> {
        let agent = Agent::default().with_diagonals(diagonals);
        Ok(Self {
            world: FlatWorld::new(grid, agent.height)?,
            pathfinder: Pathfinder::new(agent, costs)?,
        })
    }

    /// The robot assignment's planner: [`MoveCosts::default`] (10 per straight step, 14 per
    /// diagonal), so with diagonals off every route has the fewest actions.
    ///
    /// # Errors
    /// None in practice; the signature follows [`GridPlanner::new`].
    pub fn robot(grid: Grid2d, diagonals: bool) -> Result<Self> {
        Self::new(grid, diagonals, MoveCosts::default())
    }

    /// The Moving AI planner: 8-connected, no corner cutting, [`MoveCosts::octile`], so routes
    /// have optimal octile length (to about `1e-6` per diagonal step).
    ///
    /// # Errors
    /// None in practice; the signature follows [`GridPlanner::new`].
    pub fn octile(grid: Grid2d) -> Result<Self> {
        Self::new(grid, true, MoveCosts::octile())
    }

    /// The flat world searched.
    #[must_use]
    pub fn world(&self) -> &FlatWorld {
        &self.world
    }

    /// The grid.
    #[must_use]
    pub fn grid(&self) -> &Grid2d {
        self.world.grid()
    }

    /// The best route from `start` to `goal`.
    ///
    /// # Errors
    /// [`Error::InvalidCell`] when `start` or `goal` is outside the grid or blocked.
    pub fn plan(&mut self, start: IVec2, goal: IVec2) -> Result<GridRoute> {
        self.grid().check_cell("start", start)?;
        self.grid().check_cell("goal", goal)?;
        let result = self.pathfinder.find_path(
            &self.world,
            FlatWorld::feet(start),
            FlatWorld::feet(goal),
            &SearchOptions::default(),
        )?;
        let cells: Vec<IVec2> = result
            .path
            .iter()
            .map(|&feet| FlatWorld::cell(feet))
            .collect();
        // Every move of the walking rules goes to a neighbouring column.
        let actions = cells
            .windows(2)
            .filter_map(|pair| Action::between(pair[0], pair[1]))
            .collect();
        Ok(GridRoute {
            status: result.status,
            cells,
            actions,
            cost: result.cost,
            stats: result.stats,
        })
    }
}

/// Two lengths agree when they differ by at most this much, relative to the optimal length
/// (or absolutely, for lengths below 1).
pub const LENGTH_TOLERANCE: f64 = 1e-4;

/// Whether `found` matches `optimal` within [`LENGTH_TOLERANCE`] relative.
#[must_use]
pub fn lengths_match(found: f64, optimal: f64) -> bool {
    (found - optimal).abs() <= LENGTH_TOLERANCE * optimal.max(1.0)
}

/// What running a set of Moving AI scenarios gave.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BenchmarkSummary {
    /// Scenarios run.
    pub scenarios: usize,
    /// Scenarios whose route length matches the optimal length ([`lengths_match`]).
    pub passed: usize,
    /// Scenarios whose route length does not match (or that found no route).
    pub failed: usize,
    /// The largest absolute difference between a route's length and the optimal length
    /// (infinite when a route was not found).
    pub worst_difference: f64,
    /// The `.scen` line of the scenario with the largest difference.
    pub worst_line: Option<usize>,
    /// The largest difference relative to the optimal length (to 1 for lengths below 1),
    /// the quantity compared with [`LENGTH_TOLERANCE`].
    pub worst_relative: f64,
    /// The summed time of the searches.
    pub search_time: Duration,
    /// The summed node expansions of the searches.
    pub expanded: u64,
}

impl BenchmarkSummary {
    /// The mean search time per scenario, in microseconds (0 with no scenarios).
    #[must_use]
    pub fn mean_micros(&self) -> f64 {
        if self.scenarios == 0 {
            0.0
        } else {
            self.search_time.as_secs_f64() * 1e6 / self.scenarios as f64
        }
    }

    /// Node expansions per second of search time (0 when no time was measured).
    #[must_use]
    pub fn expansions_per_second(&self) -> f64 {
        let seconds = self.search_time.as_secs_f64();
        if seconds > 0.0 {
            self.expanded as f64 / seconds
        } else {
            0.0
        }
    }
}

/// Runs every scenario on the planner's grid (use [`GridPlanner::octile`] for Moving AI
/// lengths) and compares each route's octile length with the optimal one.
///
/// # Errors
/// [`Error::Parse`] naming the scenario's line when it expects a map of another size or its
/// start or goal is outside the map or blocked.
pub fn run_scenarios(
    planner: &mut GridPlanner,
    scenarios: &[Scenario],
) -> Result<BenchmarkSummary> {
    let (width, height) = (planner.grid().width(), planner.grid().height());
    for scenario in scenarios {
        if (scenario.map_width, scenario.map_height) != (width, height) {
            return Err(Error::parse(
                scenario.line,
                1,
                format!(
                    "the scenario expects a {}x{} map, but the map is {width}x{height}",
                    scenario.map_width, scenario.map_height
                ),
            ));
        }
        for (role, cell) in [("start", scenario.start), ("goal", scenario.goal)] {
            planner
                .grid()
                .check_cell(role, cell)
                .map_err(|e| Error::parse(scenario.line, 1, e.to_string()))?;
        }
    }
    let mut summary = BenchmarkSummary::default();
    for scenario in scenarios {
        let route = planner.plan(scenario.start, scenario.goal)?;
        let difference = if route.is_found() {
            (route.octile_length() - scenario.optimal_length).abs()
        } else {
            f64::INFINITY
        };
        if route.is_found() && lengths_match(route.octile_length(), scenario.optimal_length) {
            summary.passed += 1;
        } else {
            summary.failed += 1;
        }
        if summary.worst_line.is_none() || difference > summary.worst_difference {
            summary.worst_difference = difference;
            summary.worst_line = Some(scenario.line);
        }
        summary.worst_relative = summary
            .worst_relative
            .max(difference / scenario.optimal_length.max(1.0));
        summary.scenarios += 1;
        summary.search_time += route.stats.elapsed;
        summary.expanded += route.stats.expanded;
    }
    Ok(summary)
}
