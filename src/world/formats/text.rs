//! The layered text world format.
//!
//! ```text
//! voxnav-world 1
//! size <sx> <sy> <sz>
//! layer 0
//! <sz lines of sx characters>
//! layer 1
//! ...
//! layer <sy-1>
//! ```
//! Row `r` of layer `y`, character `c`, is the cell `(x = c, y, z = r)`. The characters:
//!
//! | char | block | passable | standable |
//! |---|---|---|---|
//! | `.` | [`Block::Air`] | yes | no |
//! | `#` | [`Block::Solid`] | no | yes |
//! | `~` | [`Block::Water`]: walking with the feet in it costs more | yes | no |
//! | `L` | [`Block::Lava`]: cells next to it cost more | no | no |
//! | `=` | [`Block::SlowFloor`]: walking on it costs more | no | yes |
//! | `H` | [`Block::Ladder`]: climbable straight up and down | yes | yes |
//! | `1`-`9`, `a`-`f` | [`Block::Floor`] whose top is that many sixteenths (hex): `8` a bottom slab | no | yes |
//! | `F` | [`Block::Fence`]: 1.5 blocks tall, blocks the cell above too | no | no |
//! | `D` | [`Block::Door`]: a wooden door or fence gate the agent opens | yes | no |
//! | `X` | [`Block::Barrier`]: harmless and impassable | no | no |
//! | `!` | [`Block::Hazard`]: damaging; cells next to it cost more | no | no |
//! | `W` | [`Block::Cobweb`]: slow to pass through | yes | no |
//! | `T` | [`Block::Leaves`]: tree leaves, a floor like `#` that is not natural ground | no | yes |
//!
//! Other characters are reserved for future block kinds and are an error. Blank lines after
//! the last layer are allowed.

use std::fmt::Write as _;
use std::path::Path;

use glam::IVec3;

use super::{MAX_FILE_BYTES, read_text_file, shorten, strip_bom};
use crate::error::{Error, Result};
use crate::world::chunked::{Block, ChunkedWorld};

const MAGIC: &str = "voxnav-world 1";
/// The largest size accepted along x or z.
pub const MAX_TEXT_WORLD_SIDE: i32 = 1 << 16;
/// The largest size accepted along y.
pub const MAX_TEXT_WORLD_HEIGHT: i32 = 2048;

/// Reads a world in the layered text format.
///
/// ```
/// let world = voxnav::world::parse_text_world("voxnav-world 1\nsize 2 1 1\nlayer 0\n#.\n")?;
/// assert_eq!(world.get(voxnav::IVec3::new(0, 0, 0)), Some(voxnav::Block::Solid));
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] naming the line and column of the first problem.
pub fn parse_text_world(text: &str) -> Result<ChunkedWorld> {
    let text = strip_bom(text);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)));
    let mut next = |what: &str| -> Result<(usize, &str)> {
        lines.next().ok_or_else(|| {
            Error::parse(
                text.lines().count() + 1,
                1,
                format!("expected {what}, found the end of the file"),
            )
        })
    };

    let (line, header) = next("the header `voxnav-world 1`")?;
    if header.trim_end() != MAGIC {
        return Err(Error::parse(
            line,
            1,
            format!("expected the header `{MAGIC}`, found `{}`", shorten(header)),
        ));
    }
    let (line, size_line) = next("`size <sx> <sy> <sz>`")?;
    let size = parse_size(line, size_line)?;
    let mut world =
        ChunkedWorld::with_size(size).map_err(|e| Error::parse(line, 1, e.to_string()))?;

    for y in 0..size.y {
        let (line, layer) = next(&format!("`layer {y}`"))?;
        if layer.trim_end() != format!("layer {y}") {
            return Err(Error::parse(
                line,
                1,
                format!("expected `layer {y}`, found `{}`", shorten(layer)),
            ));
        }
        for z in 0..size.z {
            let (line, row) = next(&format!("row {z} of layer {y} ({} characters)", size.x))?;
            let mut count = 0usize;
            for (column, ch) in row.chars().enumerate() {
                if column as i32 >= size.x {
                    return Err(Error::parse(
                        line,
                        column + 1,
                        format!("row is longer than the world's width {}", size.x),
                    ));
                }
                let Some(block) = block_of_char(ch) else {
                    return Err(Error::parse(
                        line,
                        column + 1,
                        format!(
                            "unknown block `{ch}` (expected `#` solid, `.` air, `~` water, \
                             `L` lava, `=` slow floor or `H` ladder)"
                        ),
                    ));
                };
                if block != Block::Air {
                    world.set(IVec3::new(column as i32, y, z), block)?;
                }
                count += 1;
            }
            if count != size.x as usize {
                return Err(Error::parse(
                    line,
                    count + 1,
                    format!("row has {count} characters, expected {}", size.x),
                ));
            }
        }
    }
    for (line, rest) in lines {
        if !rest.trim().is_empty() {
            return Err(Error::parse(
                line,
                1,
                format!(
                    "unexpected content after the last layer: `{}`",
                    shorten(rest)
                ),
            ));
        }
    }
    Ok(world)
}

/// The block a text-format character stands for.
fn block_of_char(ch: char) -> Option<Block> {
    Some(match ch {
        '.' => Block::Air,
        '#' => Block::Solid,
        '~' => Block::Water,
        'L' => Block::Lava,
        '=' => Block::SlowFloor,
        'H' => Block::Ladder,
        'F' => Block::Fence,
        'D' => Block::Door,
        'X' => Block::Barrier,
        '!' => Block::Hazard,
        'W' => Block::Cobweb,
        'T' => Block::Leaves,
        '1'..='9' | 'a'..='f' => Block::Floor(ch.to_digit(16)? as u8),
        _ => return None,
    })
}

/// The text-format character of a block.
fn char_of_block(block: Block) -> char {
    match block {
        Block::Solid => '#',
        Block::Water => '~',
        Block::Lava => 'L',
        Block::SlowFloor => '=',
        Block::Ladder => 'H',
        Block::Fence => 'F',
        Block::Door => 'D',
        Block::Barrier => 'X',
        Block::Hazard => '!',
        Block::Cobweb => 'W',
        Block::Leaves => 'T',
        Block::Floor(top) => char::from_digit(u32::from(top), 16).unwrap_or('#'),
        _ => '.',
    }
}

fn parse_size(line: usize, text: &str) -> Result<IVec3> {
    let mut words = text.split_whitespace();
    if words.next() != Some("size") {
        return Err(Error::parse(
            line,
            1,
            format!("expected `size <sx> <sy> <sz>`, found `{}`", shorten(text)),
        ));
    }
    let mut dims = [0i32; 3];
    for (axis, dim) in ["sx", "sy", "sz"].iter().zip(&mut dims) {
        let word = words.next().ok_or_else(|| {
            Error::parse(
                line,
                text.len() + 1,
                format!("missing {axis} in `size <sx> <sy> <sz>`"),
            )
        })?;
        let column = word.as_ptr() as usize - text.as_ptr() as usize + 1;
        let max = if *axis == "sy" {
            MAX_TEXT_WORLD_HEIGHT
        } else {
            MAX_TEXT_WORLD_SIDE
        };
        *dim = match word.parse::<i32>() {
            Ok(v) if (1..=max).contains(&v) => v,
            _ => {
                return Err(Error::parse(
                    line,
                    column,
                    format!(
                        "{axis} must be a whole number from 1 to {max}, found `{}`",
                        shorten(word)
                    ),
                ));
            }
        };
    }
    if let Some(extra) = words.next() {
        let column = extra.as_ptr() as usize - text.as_ptr() as usize + 1;
        return Err(Error::parse(
            line,
            column,
            format!("unexpected `{}` after the size", shorten(extra)),
        ));
    }
    Ok(IVec3::from_array(dims))
}

/// Reads a world file in the layered text format, at most
/// [`MAX_FILE_BYTES`] bytes (every world [`to_text_world`] writes).
///
/// # Errors
/// [`Error::Io`] when the file cannot be read or is not UTF-8, [`Error::FileTooLarge`] when it
/// is longer than the limit, [`Error::Parse`] when it is malformed.
pub fn load_text_world(path: impl AsRef<Path>) -> Result<ChunkedWorld> {
    parse_text_world(&read_text_file(path, MAX_FILE_BYTES)?)
}

/// Writes a bounded world in the layered text format (cells from the world's bounds' minimum
/// corner become `(0, 0, 0)`).
///
/// # Errors
/// [`Error::InvalidSetting`] when the world is unbounded, [`Error::WorldTooLarge`] when its
/// text would be longer than [`MAX_FILE_BYTES`], the most that
/// [`load_text_world`] reads back (checked before anything is written).
pub fn to_text_world(world: &ChunkedWorld) -> Result<String> {
    let bounds = world.world_bounds().ok_or_else(|| {
        Error::InvalidSetting("only a bounded world can be written as text".into())
    })?;
    let size = bounds.size();
    let header = format!("{MAGIC}\nsize {} {} {}\n", size.x, size.y, size.z);
    let bytes = text_length(header.len(), size);
    if bytes > MAX_FILE_BYTES {
        return Err(Error::WorldTooLarge {
            bytes,
            limit: MAX_FILE_BYTES,
        });
    }
    let mut out = String::with_capacity(bytes as usize);
    out.push_str(&header);
    for y in 0..size.y {
        let _ = writeln!(out, "layer {y}");
        for z in 0..size.z {
            for x in 0..size.x {
                let block = world.get(bounds.min + IVec3::new(x, y, z));
                out.push(char_of_block(block.unwrap_or_default()));
            }
            out.push('\n');
        }
    }
    Ok(out)
}

/// The length in bytes of the text of a world of `size` whose header takes `header` bytes:
/// a `layer <y>` line per layer and `sx` characters and a newline per row. Exact, and free of
/// overflow for every size (each factor is below 2^32).
fn text_length(header: usize, size: IVec3) -> u64 {
    let [sx, sy, sz] = size.to_array().map(|v| u64::try_from(v).unwrap_or(0));
    // The digits of the layer numbers 0 .. sy: those with d digits lie in 10^(d-1) .. 10^d.
    let (mut digits, mut from, mut to, mut width) = (0u64, 0u64, 10u64, 1u64);
    while from < sy {
        digits += (sy.min(to) - from) * width;
        (from, to, width) = (to, to * 10, width + 1);
    }
    let layer_lines = sy * "layer \n".len() as u64 + digits;
    let rows = sy.saturating_mul(sz).saturating_mul(sx + 1);
    (header as u64)
        .saturating_add(layer_lines)
        .saturating_add(rows)
}

/// Writes a bounded world to a file in the layered text format.
///
/// # Errors
/// As [`to_text_world`], and [`Error::Io`] when the file cannot be written.
pub fn save_text_world(world: &ChunkedWorld, path: impl AsRef<Path>) -> Result<()> {
    let path = path.as_ref();
    std::fs::write(path, to_text_world(world)?).map_err(|source| Error::io(path, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_length_is_exact() {
        for size in [
            IVec3::new(1, 1, 1),
            IVec3::new(3, 12, 2),
            IVec3::new(1, 101, 1),
            IVec3::new(17, 9, 4),
        ] {
            let world = ChunkedWorld::with_size(size).unwrap();
            let text = to_text_world(&world).unwrap();
            let header = format!("{MAGIC}\nsize {} {} {}\n", size.x, size.y, size.z);
            assert_eq!(text.len() as u64, text_length(header.len(), size), "{size}");
        }
    }

    #[test]
    fn round_trips_a_world() {
        let text = "voxnav-world 1\nsize 3 2 2\nlayer 0\n###\n#.#\nlayer 1\n...\n.#.\n";
        let world = parse_text_world(text).unwrap();
        assert_eq!(world.get(IVec3::new(1, 0, 1)), Some(Block::Air));
        assert_eq!(world.get(IVec3::new(1, 1, 1)), Some(Block::Solid));
        assert_eq!(world.get(IVec3::new(2, 0, 1)), Some(Block::Solid));
        assert_eq!(to_text_world(&world).unwrap(), text);
    }

    #[test]
    fn round_trips_every_block_kind() {
        let text =
            "voxnav-world 1\nsize 14 2 1\nlayer 0\n#.~L=HFDX!WT8f\nlayer 1\nHH~..#........\n";
        let world = parse_text_world(text).unwrap();
        let kinds = [
            Block::Solid,
            Block::Air,
            Block::Water,
            Block::Lava,
            Block::SlowFloor,
            Block::Ladder,
            Block::Fence,
            Block::Door,
            Block::Barrier,
            Block::Hazard,
            Block::Cobweb,
            Block::Leaves,
            Block::Floor(8),
            Block::Floor(15),
        ];
        for (x, kind) in kinds.into_iter().enumerate() {
            assert_eq!(world.get(IVec3::new(x as i32, 0, 0)), Some(kind));
        }
        assert_eq!(to_text_world(&world).unwrap(), text);
    }
}
