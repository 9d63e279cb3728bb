//! One chunk column decoded from its NBT on its own: its chunk coordinates, data version and
//! blocks, section by section. [`load_world`](super::load_world) decodes every chunk through
//! the same [`ChunkColumn::decode`], so a chunk read here is the chunk a load writes.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::chunk::{
    ChunkNbt, MAX_NBT_DEPTH, SECTION_CELLS, is_full_status, nbt_depth_ok, unpack_indices,
};
use super::{
    MAX_NBT_LIST, MIN_DATA_VERSION, MIN_SECTION, MIN_Y, SECTIONS, SkipReason, block_for_state,
    canonical_name, lookup_state,
};
use crate::error::{Error, Result};
use crate::world::chunked::{Block, ChunkedWorld};

/// A chunk column of a 1.18+ world (16 x 384 x 16 blocks, y from [`MIN_Y`] to
/// [`MAX_Y`](super::MAX_Y)) decoded from its NBT: where it lies, and each section's palette
/// of [`Block`]s with its indices.
///
/// The buffers are kept between [`decode`](ChunkColumn::decode) calls: decode many chunks
/// through one `ChunkColumn` to avoid allocating per chunk.
///
/// ```
/// use voxnav::anvil::{ChunkColumn, SkipReason, decode_chunk};
///
/// // Not NBT at all.
/// assert_eq!(decode_chunk(b"not a chunk").unwrap_err(), SkipReason::BadNbt);
/// let mut column = ChunkColumn::new();
/// assert!(column.decode(&[10, 0, 0, 0]).is_err()); // an empty compound: no data version
/// ```
#[derive(Clone)]
pub struct ChunkColumn {
    position: (i32, i32),
    data_version: i32,
    /// Per section, from the lowest: its palette as blocks (empty when the section is absent,
    /// which reads as air) ...
    palettes: Vec<Vec<Block>>,
    /// ... and its palette indices in Minecraft's order, `(y * 16 + z) * 16 + x` (all 0 for a
    /// one-entry palette).
    indices: Vec<[u16; SECTION_CELLS]>,
    longs: Vec<i64>,
    unknown_blocks: BTreeMap<String, usize>,
    defaulted_properties: usize,
    sections_outside: usize,
}

/// A summary: where, which version, how many sections hold blocks (not the 98 304 indices).
impl std::fmt::Debug for ChunkColumn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkColumn")
            .field("position", &self.position)
            .field("data_version", &self.data_version)
            .field(
                "sections_present",
                &self.palettes.iter().filter(|p| !p.is_empty()).count(),
            )
            .field("unknown_blocks", &self.unknown_blocks.len())
            .finish_non_exhaustive()
    }
}

impl Default for ChunkColumn {
    fn default() -> Self {
        Self::new()
    }
}

/// Decodes one chunk's NBT (decompressed, as a region file stores it) into a new
/// [`ChunkColumn`]; see [`ChunkColumn::decode`].
///
/// # Errors
/// As [`ChunkColumn::decode`].
pub fn decode_chunk(nbt: &[u8]) -> Result<ChunkColumn, SkipReason> {
    let mut column = ChunkColumn::new();
    column.decode(nbt)?;
    Ok(column)
}

impl ChunkColumn {
    /// An empty column, all air, at chunk 0, 0, ready for [`decode`](ChunkColumn::decode).
    #[must_use]
    pub fn new() -> Self {
        Self {
            position: (0, 0),
            data_version: 0,
            palettes: vec![Vec::new(); SECTIONS],
            indices: vec![[0; SECTION_CELLS]; SECTIONS],
            longs: Vec::new(),
            unknown_blocks: BTreeMap::new(),
            defaulted_properties: 0,
            sections_outside: 0,
        }
    }

    /// Decodes a chunk's NBT into this column, replacing what it held. Every block state
    /// becomes a [`Block`] through the generated block table ([`block_for_state`]); a name
    /// the table does not know becomes [`Block::Barrier`] and is counted in
    /// [`unknown_blocks`](ChunkColumn::unknown_blocks).
    ///
    /// # Errors
    /// The [`SkipReason`] the loader would count: [`SkipReason::BadNbt`] when the NBT does
    /// not parse, nests deeper than the game allows or lacks its position (`xPos`, `zPos`);
    /// [`SkipReason::OldFormat`] before 1.18 (or without a data version);
    /// [`SkipReason::NotFull`] when its status is not full; [`SkipReason::BadBlockData`]
    /// when a section's packed indices do not match its palette. After an error the column
    /// holds no chunk worth reading.
    pub fn decode(&mut self, nbt: &[u8]) -> Result<(), SkipReason> {
        if !nbt_depth_ok(nbt, MAX_NBT_DEPTH) {
            return Err(SkipReason::BadNbt);
        }
        let opts = fastnbt::DeOpts::new().max_seq_len(MAX_NBT_LIST);
        let chunk: ChunkNbt =
            fastnbt::from_bytes_with_opts(nbt, opts).map_err(|_| SkipReason::BadNbt)?;
        let data_version = chunk.data_version.ok_or(SkipReason::OldFormat)?;
        if data_version < MIN_DATA_VERSION {
            return Err(SkipReason::OldFormat);
        }
        if !chunk.status.as_deref().is_some_and(is_full_status) {
            return Err(SkipReason::NotFull);
        }
        let (Some(x), Some(z)) = (chunk.x_pos, chunk.z_pos) else {
            return Err(SkipReason::BadNbt);
        };
        self.position = (x, z);
        self.data_version = data_version;
        self.unknown_blocks.clear();
        self.defaulted_properties = 0;
        self.sections_outside = 0;
        for palette in &mut self.palettes {
            palette.clear();
        }
        for section in &chunk.sections {
            let Some(states) = &section.block_states else {
                continue;
            };
            let index = i32::from(section.y) - MIN_SECTION;
            let Some(slot) = usize::try_from(index).ok().filter(|&s| s < SECTIONS) else {
                let all_air = states.palette.iter().all(|p| {
                    matches!(
                        canonical_name(&p.name),
                        Some("air" | "cave_air" | "void_air")
                    )
                });
                self.sections_outside += usize::from(!all_air);
                continue;
            };
            if states.palette.is_empty() {
                return Err(SkipReason::BadBlockData);
            }
            let mut palette = std::mem::take(&mut self.palettes[slot]);
            palette.clear();
            for entry in &states.palette {
                palette.push(self.resolve(&entry.name, &entry.properties.0));
            }
            self.palettes[slot] = palette;
            self.longs.clear();
            if let Some(data) = &states.data {
                self.longs.extend(data.iter());
            }
            let data = states.data.as_ref().map(|_| self.longs.as_slice());
            unpack_indices(states.palette.len(), data, &mut self.indices[slot])
                .map_err(|_| SkipReason::BadBlockData)?;
        }
        Ok(())
    }

    /// The block of a palette entry, counting unknown names and defaulted properties.
    fn resolve(&mut self, name: &str, properties: &[(Cow<'_, str>, Cow<'_, str>)]) -> Block {
        let props = properties.iter().map(|(k, v)| (k.as_ref(), v.as_ref()));
        match lookup_state(name, props) {
            Some(found) => {
                self.defaulted_properties += usize::from(found.defaulted > 0);
                block_for_state(found.id).unwrap_or(Block::Barrier)
            }
            None => {
                *self.unknown_blocks.entry(name.to_string()).or_insert(0) += 1;
                Block::Barrier
            }
        }
    }

    /// The chunk coordinates `(x, z)` the chunk names (`xPos`, `zPos`): block coordinates
    /// divided by 16, rounded down.
    #[must_use]
    pub fn position(&self) -> (i32, i32) {
        self.position
    }

    /// The chunk's data version (4671 for Minecraft 1.21.11).
    #[must_use]
    pub fn data_version(&self) -> i32 {
        self.data_version
    }

    /// The block at `x`, `z` within the column (0..16) and world height `y`
    /// ([`MIN_Y`]..[`MAX_Y`](super::MAX_Y)); `None` outside those ranges. An absent section
    /// is air.
    #[must_use]
    pub fn get(&self, x: i32, y: i32, z: i32) -> Option<Block> {
        let above = usize::try_from(y.checked_sub(MIN_Y)?).ok()?;
        let palette = self.palettes.get(above / 16)?;
        if !(0..16).contains(&x) || !(0..16).contains(&z) {
            return None;
        }
        let cell = ((above % 16) * 16 + z as usize) * 16 + x as usize;
        let slot = above / 16;
        match palette.as_slice() {
            [] => Some(Block::Air),
            [block] => Some(*block),
            _ => palette.get(usize::from(self.indices[slot][cell])).copied(),
        }
    }

    /// The sections from the lowest (y from [`MIN_Y`]), each as its palette of blocks
    /// (empty for an absent section, which is air) and its 4096 palette indices in
    /// Minecraft's order, `(y * 16 + z) * 16 + x` (meaningful only for a palette of more
    /// than one block).
    pub fn sections(&self) -> impl Iterator<Item = (&[Block], &[u16; SECTION_CELLS])> + '_ {
        self.palettes
            .iter()
            .zip(&self.indices)
            .map(|(palette, indices)| (palette.as_slice(), indices))
    }

    /// Palette entries whose block name the table does not know, by name (decoded as
    /// [`Block::Barrier`]).
    #[must_use]
    pub fn unknown_blocks(&self) -> &BTreeMap<String, usize> {
        &self.unknown_blocks
    }

    /// Palette entries with a property the table does not know, or without one it expects
    /// (each took the block's default value).
    #[must_use]
    pub fn defaulted_properties(&self) -> usize {
        self.defaulted_properties
    }

    /// Loads this column into `world`, a world of chunk columns
    /// ([`ChunkedWorld::with_height`]), at its own chunk coordinates
    /// ([`ChunkColumn::position`]), replacing the column there if one was loaded: the path
    /// [`load_world`](super::load_world) runs for every chunk, and the one a server plugin
    /// runs for each chunk the server loads. Sections below the world's lowest y are left
    /// out (a nether or end world is `with_height(0, 256)`).
    ///
    /// # Errors
    /// As [`ChunkedWorld::insert_column`]; [`Error::InvalidSetting`] when a section that is
    /// not all air lies above the world's top (nothing is written then).
    pub fn insert_into(&self, world: &mut ChunkedWorld) -> Result<()> {
        let Some(height) = world.column_height() else {
            return Err(Error::InvalidSetting(
                "only a world made by ChunkedWorld::with_height loads chunk columns".to_owned(),
            ));
        };
        let mut sections = Vec::with_capacity(SECTIONS);
        for (i, (palette, indices)) in self.sections().enumerate() {
            let bottom = MIN_Y + 16 * i as i32;
            if bottom < height.start {
                continue;
            }
            if bottom >= height.end {
                if palette.iter().any(|&b| b != Block::Air) {
                    return Err(Error::InvalidSetting(format!(
                        "chunk column {},{} has blocks at y {bottom}, above the world's top {}",
                        self.position.0, self.position.1, height.end
                    )));
                }
                continue;
            }
            sections.push((palette, &indices[..]));
        }
        world.insert_column(self.position.0, self.position.1, sections)
    }

    /// Non-air sections outside y -64..320, which a column cannot hold.
    #[must_use]
    pub fn sections_outside(&self) -> usize {
        self.sections_outside
    }
}
