//! One chunk's NBT: our own serde structs for the fields voxnav reads, and the decoding of
//! the packed block-state indices.

use std::borrow::Cow;
use std::fmt;

use fastnbt::borrow::LongArray;
use serde::Deserialize;
use serde::de::{MapAccess, Visitor};

/// The first data version with the 1.18 chunk layout (`sections` with `block_states`).
pub const MIN_DATA_VERSION: i32 = 2860;

/// The cells of a 16x16x16 section.
pub(super) const SECTION_CELLS: usize = 4096;

/// The fields of a chunk that voxnav reads; everything else is skipped.
#[derive(Deserialize)]
pub(super) struct ChunkNbt<'a> {
    #[serde(rename = "DataVersion")]
    pub data_version: Option<i32>,
    #[serde(rename = "Status", borrow)]
    pub status: Option<Cow<'a, str>>,
    #[serde(rename = "xPos")]
    pub x_pos: Option<i32>,
    #[serde(rename = "zPos")]
    pub z_pos: Option<i32>,
    #[serde(default, borrow)]
    pub sections: Vec<SectionNbt<'a>>,
}

/// A chunk's own position, and nothing else of it.
#[derive(Deserialize)]
struct PositionNbt {
    #[serde(rename = "xPos")]
    x_pos: i32,
    #[serde(rename = "zPos")]
    z_pos: i32,
}

/// The chunk coordinates `(xPos, zPos)` a chunk's NBT names, if it parses and has them.
pub(super) fn chunk_position(nbt: &[u8]) -> Option<(i32, i32)> {
    if !nbt_depth_ok(nbt, MAX_NBT_DEPTH) {
        return None;
    }
    let opts = fastnbt::DeOpts::new().max_seq_len(super::MAX_NBT_LIST);
    let position: PositionNbt = fastnbt::from_bytes_with_opts(nbt, opts).ok()?;
    Some((position.x_pos, position.z_pos))
}

/// One 16-block-tall section of a chunk.
#[derive(Deserialize)]
pub(super) struct SectionNbt<'a> {
    #[serde(rename = "Y")]
    pub y: i8,
    #[serde(borrow)]
    pub block_states: Option<BlockStatesNbt<'a>>,
}

/// A section's palette and packed indices.
#[derive(Deserialize)]
pub(super) struct BlockStatesNbt<'a> {
    #[serde(borrow)]
    pub palette: Vec<PaletteEntry<'a>>,
    #[serde(borrow)]
    pub data: Option<LongArray<'a>>,
}

/// One palette entry: a block name and its properties.
#[derive(Deserialize)]
pub(super) struct PaletteEntry<'a> {
    #[serde(rename = "Name", borrow)]
    pub name: Cow<'a, str>,
    #[serde(rename = "Properties", default, borrow)]
    pub properties: Properties<'a>,
}

/// A block state's properties as (name, value) pairs, in file order.
#[derive(Default)]
pub(super) struct Properties<'a>(pub Vec<(Cow<'a, str>, Cow<'a, str>)>);

impl<'de: 'a, 'a> Deserialize<'de> for Properties<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PropertiesVisitor<'a>(std::marker::PhantomData<&'a ()>);

        impl<'de: 'a, 'a> Visitor<'de> for PropertiesVisitor<'a> {
            type Value = Properties<'a>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a compound of string properties")
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0).min(16));
                while let Some((key, value)) = map.next_entry::<BorrowedStr, BorrowedStr>()? {
                    pairs.push((key.0, value.0));
                }
                Ok(Properties(pairs))
            }
        }

        deserializer.deserialize_map(PropertiesVisitor(std::marker::PhantomData))
    }
}

/// A string borrowed from the NBT when it can be.
struct BorrowedStr<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for BorrowedStr<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        fastnbt::borrow::deserialize_cow_str(deserializer).map(BorrowedStr)
    }
}

/// The deepest nesting of lists and compounds accepted, as in the game (512).
pub(super) const MAX_NBT_DEPTH: usize = 512;

/// Whether `nbt` is a well-formed NBT document whose lists and compounds nest at most
/// `max_depth` deep. Checked with an explicit stack before the (recursive) serde
/// deserializer runs, so that a damaged or hostile chunk cannot overflow the thread's stack.
pub(super) fn nbt_depth_ok(nbt: &[u8], max_depth: usize) -> bool {
    walk_nbt(&mut NbtReader { nbt, at: 0 }, max_depth).is_some()
}

/// A cursor over NBT bytes.
struct NbtReader<'a> {
    nbt: &'a [u8],
    at: usize,
}

impl<'a> NbtReader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let bytes = self.nbt.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(bytes)
    }

    fn byte(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    /// Skips a string (u16 length, then the bytes).
    fn skip_string(&mut self) -> Option<()> {
        let n = self.take(2)?;
        self.take(usize::from(u16::from_be_bytes([n[0], n[1]])))?;
        Some(())
    }

    /// An i32 length, `None` when negative.
    fn length(&mut self) -> Option<usize> {
        let n = self.take(4)?;
        usize::try_from(i32::from_be_bytes([n[0], n[1], n[2], n[3]])).ok()
    }
}

/// A container being walked: a compound (until its end tag) or a list of `left` elements
/// of one tag type.
enum NbtFrame {
    Compound,
    List { tag: u8, left: usize },
}

fn walk_nbt(reader: &mut NbtReader<'_>, max_depth: usize) -> Option<()> {
    // The root: a named compound.
    if reader.byte()? != 10 {
        return None;
    }
    reader.skip_string()?;
    let mut stack = vec![NbtFrame::Compound];
    while let Some(frame) = stack.last_mut() {
        let tag = match frame {
            NbtFrame::Compound => {
                let tag = reader.byte()?;
                if tag == 0 {
                    stack.pop();
                    continue;
                }
                reader.skip_string()?;
                tag
            }
            NbtFrame::List { tag, left } => {
                if *left == 0 {
                    stack.pop();
                    continue;
                }
                *left -= 1;
                *tag
            }
        };
        match tag {
            1 => {
                reader.take(1)?;
            }
            2 => {
                reader.take(2)?;
            }
            3 | 5 => {
                reader.take(4)?;
            }
            4 | 6 => {
                reader.take(8)?;
            }
            7 => {
                let n = reader.length()?;
                reader.take(n)?;
            }
            8 => reader.skip_string()?,
            9 => {
                let element = reader.byte()?;
                let left = reader.length()?;
                stack.push(NbtFrame::List { tag: element, left });
            }
            10 => stack.push(NbtFrame::Compound),
            11 => {
                let n = reader.length()?;
                reader.take(n.checked_mul(4)?)?;
            }
            12 => {
                let n = reader.length()?;
                reader.take(n.checked_mul(8)?)?;
            }
            _ => return None,
        }
        if stack.len() > max_depth {
            return None;
        }
    }
    Some(())
}

/// Whether a chunk status means finished terrain.
pub(super) fn is_full_status(status: &str) -> bool {
    matches!(status, "minecraft:full" | "full")
}

/// Why a section's packed indices cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum PackedError {
    /// The palette is empty.
    EmptyPalette,
    /// A palette of more than one entry without index data.
    MissingData,
    /// The data holds the wrong number of longs for the palette size.
    WrongLength { expected: usize, found: usize },
    /// An index points past the end of the palette.
    IndexOutOfPalette { index: usize, palette: usize },
}

impl fmt::Display for PackedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackedError::EmptyPalette => write!(f, "a section has an empty palette"),
            PackedError::MissingData => {
                write!(
                    f,
                    "a section with several palette entries has no index data"
                )
            }
            PackedError::WrongLength { expected, found } => write!(
                f,
                "a section's index data holds {found} longs where its palette needs {expected}"
            ),
            PackedError::IndexOutOfPalette { index, palette } => write!(
                f,
                "a section's index {index} points past its palette of {palette} entries"
            ),
        }
    }
}

/// The bits per index of a block-state palette of `len` entries (1.16+ layout: at least 4).
pub(super) fn bits_per_index(len: usize) -> u32 {
    let needed = usize::BITS - (len.max(2) - 1).leading_zeros();
    needed.max(4)
}

/// Decodes the packed palette indices of a section into `out` (4096 entries, in Minecraft's
/// order: `(y * 16 + z) * 16 + x`). From 1.16 an index never spans two longs: each long
/// holds `64 / bits` indices from its lowest bits up, and the rest of its bits are padding.
///
/// # Errors
/// A [`PackedError`] when the data does not match the palette.
pub(super) fn unpack_indices(
    palette_len: usize,
    data: Option<&[i64]>,
    out: &mut [u16; SECTION_CELLS],
) -> Result<(), PackedError> {
    if palette_len == 0 {
        return Err(PackedError::EmptyPalette);
    }
    if palette_len == 1 {
        out.fill(0);
        return Ok(());
    }
    let Some(data) = data else {
        return Err(PackedError::MissingData);
    };
    let bits = bits_per_index(palette_len);
    let per_long = (64 / bits) as usize;
    let expected = SECTION_CELLS.div_ceil(per_long);
    if data.len() != expected {
        return Err(PackedError::WrongLength {
            expected,
            found: data.len(),
        });
    }
    let mask = (1u64 << bits) - 1;
    let mut worst = 0u16;
    for (cells, &long) in out.chunks_mut(per_long).zip(data) {
        let mut word = long as u64;
        for cell in cells {
            let index = (word & mask) as u16;
            worst = worst.max(index);
            *cell = index;
            word >>= bits;
        }
    }
    if usize::from(worst) >= palette_len {
        return Err(PackedError::IndexOutOfPalette {
            index: usize::from(worst),
            palette: palette_len,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nbt_nesting_is_checked_without_recursion() {
        // {"": {a: [ {b: 1b} ]}} as bytes.
        let nested = [
            10, 0, 0, // root compound, empty name
            10, 0, 1, b'a', // compound "a"
            9, 0, 1, b'l', 10, 0, 0, 0, 1, // list "l" of one compound
            1, 0, 1, b'b', 1, // byte "b" = 1
            0, // end of the list's compound
            0, // end of "a"
            0, // end of the root
        ];
        assert!(nbt_depth_ok(&nested, 512));
        assert!(nbt_depth_ok(&nested, 4));
        assert!(!nbt_depth_ok(&nested, 3));
        assert!(!nbt_depth_ok(&nested[..nested.len() - 1], 512), "truncated");
        let mut deep = vec![10, 0, 0];
        for _ in 0..100_000 {
            deep.extend_from_slice(&[10, 0, 1, b'x']);
        }
        deep.extend(std::iter::repeat_n(0, 100_001));
        assert!(!nbt_depth_ok(&deep, MAX_NBT_DEPTH));
        assert!(nbt_depth_ok(&deep, 200_000));
        // A list claiming billions of elements ends at the end of the bytes.
        let huge_list = [10, 0, 0, 9, 0, 1, b'l', 1, 0x7f, 0xff, 0xff, 0xff, 0];
        assert!(!nbt_depth_ok(&huge_list, 512));
    }

    #[test]
    fn bits_per_index_is_at_least_four_and_fits_the_palette() {
        assert_eq!(bits_per_index(2), 4);
        assert_eq!(bits_per_index(16), 4);
        assert_eq!(bits_per_index(17), 5);
        assert_eq!(bits_per_index(32), 5);
        assert_eq!(bits_per_index(33), 6);
        assert_eq!(bits_per_index(4096), 12);
    }

    #[test]
    fn indices_do_not_span_longs() {
        // 5 bits: 12 indices per long, 4 bits of padding; 342 longs for 4096 cells.
        let palette = 20;
        let mut data = vec![0i64; 342];
        // Cell 12 is the first index of the second long; cell 11 the last of the first.
        data[0] = (19i64) << (11 * 5);
        data[1] = 7;
        let mut out = [0u16; SECTION_CELLS];
        unpack_indices(palette, Some(&data), &mut out).unwrap();
        assert_eq!(out[11], 19);
        assert_eq!(out[12], 7);
        assert_eq!(out.iter().filter(|&&i| i != 0).count(), 2);
    }

    #[test]
    fn bad_packed_data_is_an_error() {
        let mut out = [0u16; SECTION_CELLS];
        assert_eq!(
            unpack_indices(0, None, &mut out),
            Err(PackedError::EmptyPalette)
        );
        assert_eq!(
            unpack_indices(3, None, &mut out),
            Err(PackedError::MissingData)
        );
        assert_eq!(
            unpack_indices(3, Some(&[0; 10]), &mut out),
            Err(PackedError::WrongLength {
                expected: 256,
                found: 10
            })
        );
        let mut data = [0i64; 256];
        data[5] = 9;
        assert_eq!(
            unpack_indices(3, Some(&data), &mut out),
            Err(PackedError::IndexOutOfPalette {
                index: 9,
                palette: 3
            })
        );
    }
}
