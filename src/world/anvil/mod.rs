//! Real Minecraft Java Edition worlds (feature `anvil`): Anvil region files loaded into a
//! [`ChunkedWorld`] in the game's own coordinates.
//!
//! ```no_run
//! use voxnav::anvil::load_world;
//!
//! // A save folder (with `region/`), a folder of region files (`*.mca`), or one region file.
//! let loaded = load_world("saves/MyWorld")?;
//! println!("{}", loaded.report);
//! # Ok::<(), voxnav::Error>(())
//! ```
//!
//! What is loaded:
//! - chunks written by Minecraft 1.18 or later (data version 2860 and up), whose status is
//!   full (`minecraft:full`, or `full`): finished terrain. Their 24 sections (y from -64 to
//!   319) become chunks of the world; every block state becomes a [`Block`] through the
//!   generated block table ([`block_for_state`] says how);
//! - everything else is *unloaded*: chunks not yet fully generated, chunks absent from the
//!   files, chunks that could not be read. Unloaded cells are [`Block::Barrier`]: neither
//!   passable nor standable, so no route enters or stands on what the loader does not know.
//!
//! What is skipped, counted in the [`LoadReport`] by [`SkipReason`] and never a panic: a chunk
//! that is not full, older than 1.18, damaged in the file (location, length, compression),
//! stored in sectors another slot points at too, inflating past [`MAX_CHUNK_NBT`] (a
//! compression bomb) or past what is left of the file's or the load's inflation budget
//! ([`MAX_REGION_NBT`], [`MAX_LOAD_NBT`]), whose NBT does not parse or lacks its sections,
//! whose packed block data does not match its palette, or that claims another position than
//! its slot. A region file too short for its header is an error when it is the only file
//! asked for, and a counted bad file in a folder.
//!
//! Where a region file's chunks go: each chunk's NBT names its own chunk coordinates
//! (`xPos`, `zPos`), and they place the file. The name `r.X.Z.mca` is only a cross-check: a
//! renamed file (a backup, a download) loads where its chunks say, and a file whose name
//! disagrees with its chunks is listed in [`LoadReport::misnamed_files`]. Only a file whose
//! chunks name no position is placed by its name.
//!
//! A region file is read header first, then only the sectors its chunks occupy
//! ([`LoadReport::bytes_read`] says how much).
//!
//! One chunk on its own: [`decode_chunk`] (or [`ChunkColumn::decode`], reusing its buffers)
//! turns a chunk's decompressed NBT into its chunk coordinates and its blocks, section by
//! section, through the same code the loader runs for every chunk. A block name the table does not know (a newer or modded block) is loaded as
//! [`Block::Barrier`], the conservative answer (never walked through, never stood on), and
//! counted by name; an unknown property value takes the block's default value and is counted.

#[rustfmt::skip]
mod block_table;
mod chunk;
mod column;
mod inflate;
mod region;
mod table;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use glam::IVec3;

use crate::error::{Error, Result};
use crate::world::Bounds;
use crate::world::chunked::{Block, CHUNK_SIZE, ChunkedWorld};

pub use chunk::MIN_DATA_VERSION;
pub use column::{ChunkColumn, decode_chunk};
pub use table::{
    BLOCK_ALIASES, StateInfo, StateLookup, TABLE_SOURCE, TableSource, block_for_state,
    canonical_name, lookup_state, state_count, state_info, state_name, state_property,
};

use region::RegionFile;

/// The lowest block y of a 1.18+ overworld chunk.
pub const MIN_Y: i32 = -64;
/// One past the highest block y of a 1.18+ overworld chunk.
pub const MAX_Y: i32 = 320;
/// The sections of a chunk column: y from [`MIN_Y`] to [`MAX_Y`], 16 blocks each.
const SECTIONS: usize = ((MAX_Y - MIN_Y) / CHUNK_SIZE) as usize;
const MIN_SECTION: i32 = MIN_Y / CHUNK_SIZE;
/// The side of a region in chunks.
const REGION_CHUNKS: i32 = 32;
/// The most bytes one chunk's NBT may decompress to: 16 MiB. The game stores a chunk in its
/// region file while the compressed chunk is under 1 MiB, and chunk NBT compresses 5 to 15
/// times (in the 1.21 sample world at most 14.2 times; its largest chunk is 84 KB), so no
/// chunk a region holds comes near it, while a compression bomb (deflate reaches 1032 to 1)
/// is stopped after 16 MiB of output instead of inflating to a gigabyte. Larger chunks are
/// counted as [`SkipReason::TooLarge`].
pub const MAX_CHUNK_NBT: usize = 16 << 20;
/// The most bytes the chunks of one region file may inflate to, together: 256 MiB. A full
/// region of the 1.21 sample world's chunks (64 KiB of NBT each on average) inflates to
/// 64 MiB; without this cap a region whose 1 024 chunks each inflate to just under
/// [`MAX_CHUNK_NBT`] would cost 16 GiB of inflation. Chunks past it are counted as
/// [`SkipReason::OverBudget`].
pub const MAX_REGION_NBT: u64 = 256 << 20;
/// The most bytes one load may inflate, over all its region files: 8 GiB, 128 full regions
/// of the sample world's chunks (131 072 chunks, more than fits in memory as a
/// [`ChunkedWorld`] on most machines), and at most some seconds of inflation for a folder of
/// hostile files. Chunks past it are counted as [`SkipReason::OverBudget`].
pub const MAX_LOAD_NBT: u64 = 8 << 30;
/// The largest NBT list accepted: far above any real chunk's, low enough that a damaged
/// length cannot ask for gigabytes.
const MAX_NBT_LIST: usize = 1 << 16;

/// Why a chunk stored in a region file was not loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum SkipReason {
    /// Its status is not full: the game has not finished generating it. Normal at the edge
    /// of explored land.
    NotFull,
    /// Written before Minecraft 1.18 (data version below [`MIN_DATA_VERSION`]), or without
    /// a data version.
    OldFormat,
    /// Its location-table entry or length is impossible (inside the header, zero sectors,
    /// a length larger than its sectors).
    BadLocation,
    /// The file ends before the chunk does.
    Truncated,
    /// Stored in an external `.mcc` file (chunks over 1 MiB), which voxnav does not read.
    External,
    /// An unknown compression type, or a payload that does not decompress.
    BadCompression,
    /// Its NBT decompresses to more than [`MAX_CHUNK_NBT`] bytes: a compression bomb, or at
    /// least not a chunk the game stores in a region file.
    TooLarge,
    /// The NBT does not parse, or lacks a field voxnav needs.
    BadNbt,
    /// A section's packed block indices do not match its palette.
    BadBlockData,
    /// Its `xPos`/`zPos` name another chunk than the slot it is stored in.
    WrongPosition,
    /// Its location entry points at sectors that another slot's entry points at too: one
    /// payload stored once and named by many slots (a way to make a small file inflate many
    /// times), or a damaged table. Every slot of such an overlap is refused.
    SharedSectors,
    /// Inflating it would pass what is left of the region file's ([`MAX_REGION_NBT`]) or the
    /// load's ([`MAX_LOAD_NBT`]) inflation budget.
    OverBudget,
}

impl SkipReason {
    /// Every reason, in report order.
    pub const ALL: [SkipReason; 12] = [
        SkipReason::NotFull,
        SkipReason::OldFormat,
        SkipReason::BadLocation,
        SkipReason::Truncated,
        SkipReason::External,
        SkipReason::BadCompression,
        SkipReason::TooLarge,
        SkipReason::BadNbt,
        SkipReason::BadBlockData,
        SkipReason::WrongPosition,
        SkipReason::SharedSectors,
        SkipReason::OverBudget,
    ];

    /// A short name for reports.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SkipReason::NotFull => "not full",
            SkipReason::OldFormat => "pre-1.18",
            SkipReason::BadLocation => "bad location",
            SkipReason::Truncated => "truncated",
            SkipReason::External => "external .mcc",
            SkipReason::BadCompression => "bad compression",
            SkipReason::TooLarge => "too large",
            SkipReason::BadNbt => "bad NBT",
            SkipReason::BadBlockData => "bad block data",
            SkipReason::WrongPosition => "wrong position",
            SkipReason::SharedSectors => "shared sectors",
            SkipReason::OverBudget => "over the inflation budget",
        }
    }
}

/// What a load did: chunks loaded and skipped, unknown blocks, time and memory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Region files read.
    pub region_files: usize,
    /// Region files that could not be read at all, with the reason.
    pub bad_region_files: Vec<(PathBuf, String)>,
    /// Chunks stored in the files (slots with a location entry).
    pub chunks_stored: usize,
    /// Chunks loaded as terrain.
    pub chunks_loaded: usize,
    /// Chunks not loaded, by reason.
    pub skipped: BTreeMap<SkipReason, usize>,
    /// Up to ten messages about damaged chunks (not about chunks that are merely not full or
    /// old), to say what was wrong where.
    pub problems: Vec<String>,
    /// Palette entries whose block name the table does not know, by name (loaded as
    /// [`Block::Barrier`]).
    pub unknown_blocks: BTreeMap<String, usize>,
    /// Palette entries with a property the table does not know, or without one it expects
    /// (each took the block's default value).
    pub defaulted_properties: usize,
    /// Non-air sections outside y -64..320 in loaded chunks, which the world cannot hold.
    pub sections_outside: usize,
    /// The lowest and highest data version among loaded chunks.
    pub data_versions: Option<(i32, i32)>,
    /// Wall-clock time of the load.
    pub elapsed: Duration,
    /// Heap bytes the loaded world holds ([`ChunkedWorld::heap_bytes`]).
    pub bytes_held: usize,
    /// Bytes read from the region files: their headers and the sectors of the chunks read.
    pub bytes_read: u64,
    /// Bytes of chunk NBT inflated, including chunks then skipped (at most
    /// [`MAX_LOAD_NBT`] and a chunk's [`MAX_CHUNK_NBT`]).
    pub bytes_inflated: u64,
    /// Region files whose name `r.X.Z.mca` disagrees with their chunks' own positions, with
    /// the region `(x, z)` their chunks place them in (where they were loaded).
    pub misnamed_files: Vec<(PathBuf, (i32, i32))>,
}

impl LoadReport {
    /// Chunks skipped for `reason`.
    #[must_use]
    pub fn skipped(&self, reason: SkipReason) -> usize {
        self.skipped.get(&reason).copied().unwrap_or(0)
    }

    /// Chunks skipped for any reason.
    #[must_use]
    pub fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }

    fn skip(&mut self, reason: SkipReason, at: impl FnOnce() -> String) {
        *self.skipped.entry(reason).or_insert(0) += 1;
        let damage = !matches!(reason, SkipReason::NotFull | SkipReason::OldFormat);
        if damage && self.problems.len() < 10 {
            self.problems.push(format!("{}: {}", at(), reason.name()));
        }
    }
}

impl fmt::Display for LoadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "loaded {} of {} stored chunks from {} region files in {:.1} ms, {:.1} MiB held \
             ({:.1} KiB per loaded chunk)",
            self.chunks_loaded,
            self.chunks_stored,
            self.region_files,
            self.elapsed.as_secs_f64() * 1e3,
            self.bytes_held as f64 / (1024.0 * 1024.0),
            self.bytes_held as f64 / 1024.0 / self.chunks_loaded.max(1) as f64,
        )?;
        let skipped: Vec<String> = self
            .skipped
            .iter()
            .map(|(reason, n)| format!("{n} {}", reason.name()))
            .collect();
        if !skipped.is_empty() {
            write!(f, "; skipped {}", skipped.join(", "))?;
        }
        if !self.bad_region_files.is_empty() {
            write!(
                f,
                "; {} unreadable region files",
                self.bad_region_files.len()
            )?;
        }
        if !self.unknown_blocks.is_empty() {
            let names: Vec<&str> = self.unknown_blocks.keys().map(String::as_str).collect();
            write!(f, "; unknown blocks (as barriers): {}", names.join(", "))?;
        }
        if !self.misnamed_files.is_empty() {
            let files: Vec<String> = self
                .misnamed_files
                .iter()
                .map(|(file, (x, z))| format!("{} holds region {x},{z}", file.display()))
                .collect();
            write!(
                f,
                "; named for another region than their chunks (loaded where the chunks say): {}",
                files.join(", ")
            )?;
        }
        if self.defaulted_properties > 0 {
            write!(
                f,
                "; {} palette entries with defaulted properties",
                self.defaulted_properties
            )?;
        }
        Ok(())
    }
}

/// A loaded world and the report of its load.
#[derive(Debug, Clone)]
pub struct LoadedWorld {
    /// The world, in Minecraft's world coordinates; unloaded chunks read as
    /// [`Block::Barrier`].
    pub world: ChunkedWorld,
    /// The chunk columns loaded as terrain, as chunk coordinates `(x, z)` (block
    /// coordinates divided by 16, rounded down), in load order.
    pub loaded_chunks: Vec<(i32, i32)>,
    /// What the load did.
    pub report: LoadReport,
}

/// Loads a Minecraft Java Edition world: a save folder (holding `region/`), a folder of
/// region files (`*.mca`), or one region file, whatever its name.
///
/// The world's bounds are the regions found (x and z), y from [`MIN_Y`] to [`MAX_Y`]. Each
/// file's chunks go where their own positions say; a file's name `r.X.Z.mca` only
/// cross-checks them (see the module docs).
///
/// # Errors
/// [`Error::Io`] when the path cannot be read; [`Error::FileTooLarge`] when a single file
/// is larger than [`MAX_REGION_BYTES`]; [`Error::Anvil`] when the path is neither a folder
/// nor a regular file (a device such as `/dev/zero`), when a folder holds no readable
/// region file, when a single file is too short for a region header or names its region
/// neither in its chunks nor in its name, or when the regions lie outside voxnav's
/// coordinate range. Damaged chunks are counted skips, not errors (see the module docs).
pub fn load_world(path: impl AsRef<Path>) -> Result<LoadedWorld> {
    let started = Instant::now();
    let path = path.as_ref();
    let metadata = std::fs::metadata(path).map_err(|source| io_error(path, source))?;
    let single = metadata.is_file();
    let files = if single {
        vec![path.to_path_buf()]
    } else if metadata.is_dir() {
        region_files(path)?
    } else {
        return Err(anvil_error(
            path,
            format!("neither a folder nor a regular file; {EXPECTED_WORLD}"),
        ));
    };
    let mut report = LoadReport::default();
    // Every file's region first: the world's bounds cover them all before a chunk is written.
    let mut placed: Vec<(PathBuf, (i32, i32))> = Vec::new();
    for file in files {
        match place_file(&file, &mut report) {
            Ok(coords) => placed.push((file, coords)),
            Err(e) if single => return Err(e),
            Err(e) => report.bad_region_files.push((file, e.to_string())),
        }
    }
    placed.sort_by_key(|(_, coords)| *coords);
    // Two files holding the same region (a copy beside the original): the first is loaded.
    let mut unique: Vec<(PathBuf, (i32, i32))> = Vec::with_capacity(placed.len());
    for (file, coords) in placed {
        match unique.last() {
            Some((first, last)) if *last == coords => {
                let problem = format!(
                    "holds region {},{}, as {} does (loaded once, from that file)",
                    coords.0,
                    coords.1,
                    first.display()
                );
                report.bad_region_files.push((file, problem));
            }
            _ => unique.push((file, coords)),
        }
    }
    if unique.is_empty() {
        let why = report
            .bad_region_files
            .first()
            .map(|(file, problem)| format!("{}: {problem}", file.display()));
        return Err(anvil_error(
            path,
            format!(
                "no readable region file ({})",
                why.unwrap_or_else(|| EXPECTED_WORLD.to_owned())
            ),
        ));
    }
    let coords: Vec<(i32, i32)> = unique.iter().map(|(_, c)| *c).collect();
    let mut loader = Loader::new(&coords, report).map_err(|e| anvil_error(path, e))?;
    for (file, coords) in &unique {
        match open_region(file) {
            Ok(region) => loader.region(region, *coords, file),
            Err(e) if single => return Err(e),
            Err(e) => loader
                .report
                .bad_region_files
                .push((file.clone(), e.to_string())),
        }
    }
    Ok(loader.finish(started))
}

/// What [`load_world`] reads, for messages about a path that is not it.
const EXPECTED_WORLD: &str = "expected a save folder (holding region/), a folder of region \
     files (*.mca), or one region file";

/// The most bytes [`load_world`] accepts in one region file: the 8 KiB header and 1024
/// chunks of 255 sectors of 4 KiB each, the most a region holds (a larger chunk lives in an
/// external `.mcc` file, which voxnav does not read). A larger file is refused (a single file)
/// or reported in [`LoadReport::bad_region_files`] (a folder) without being read. Of a file
/// within the cap, only the header and the sectors its chunks occupy are read.
pub const MAX_REGION_BYTES: u64 = 8192 + 1024 * 255 * 4096;

/// Loads one region from its bytes (the contents of a region file).
///
/// `region_x` and `region_z` are the region's coordinates as its name `r.X.Z.mca` would
/// give them: the chunks' own positions place the region, and these coordinates only
/// cross-check them ([`LoadReport::misnamed_files`] lists a disagreement) or place a
/// region whose chunks name no position.
///
/// # Errors
/// [`Error::Anvil`] when the bytes are too short for a region header or the region lies
/// outside voxnav's coordinate range. Damaged chunks are counted skips.
pub fn load_region(bytes: &[u8], region_x: i32, region_z: i32) -> Result<LoadedWorld> {
    let started = Instant::now();
    let name = PathBuf::from(format!("r.{region_x}.{region_z}.mca"));
    let mut report = LoadReport::default();
    let mut region = RegionFile::new(std::io::Cursor::new(bytes))
        .map_err(|e| anvil_error(&name, e.to_string()))?;
    let coords = match probe_region(&mut region, &mut report) {
        Some(found) if found != (region_x, region_z) => {
            report.misnamed_files.push((name.clone(), found));
            found
        }
        _ => (region_x, region_z),
    };
    let mut loader = Loader::new(&[coords], report).map_err(|e| anvil_error(&name, e))?;
    loader.region(region, coords, &name);
    Ok(loader.finish(started))
}

fn io_error(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        path: path.display().to_string(),
        source: source.into(),
    }
}

fn anvil_error(path: &Path, problem: impl Into<String>) -> Error {
    Error::Anvil {
        path: path.display().to_string(),
        problem: problem.into(),
    }
}

/// The region files of a world folder: the `*.mca` files of its `region/` folder, or of the
/// folder itself.
fn region_files(path: &Path) -> Result<Vec<PathBuf>> {
    let folder = if path.join("region").is_dir() {
        path.join("region")
    } else {
        path.to_path_buf()
    };
    let entries = std::fs::read_dir(&folder).map_err(|source| io_error(&folder, source))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|file| file.extension().is_some_and(|ext| ext == "mca"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(anvil_error(
            &folder,
            format!("no region files (*.mca) here or in a region/ folder below; {EXPECTED_WORLD}"),
        ));
    }
    Ok(files)
}

/// Opens a region file and reads its header.
///
/// # Errors
/// [`Error::Io`] when it cannot be opened, [`Error::FileTooLarge`] over
/// [`MAX_REGION_BYTES`], [`Error::Anvil`] when it is not a regular file or is too short for
/// its header.
fn open_region(file: &Path) -> Result<RegionFile<std::fs::File>> {
    let handle = std::fs::File::open(file).map_err(|source| io_error(file, source))?;
    let metadata = handle.metadata().map_err(|source| io_error(file, source))?;
    if !metadata.is_file() {
        return Err(anvil_error(
            file,
            format!("not a regular file; {EXPECTED_WORLD}"),
        ));
    }
    if metadata.len() > MAX_REGION_BYTES {
        return Err(Error::FileTooLarge {
            path: file.display().to_string(),
            limit: MAX_REGION_BYTES,
        });
    }
    RegionFile::new(handle).map_err(|e| anvil_error(file, e.to_string()))
}

/// The region a file holds: where its chunks say, else where its name says; a disagreement
/// between the two is listed in the report.
///
/// # Errors
/// As [`open_region`], and [`Error::Anvil`] when neither its chunks nor its name place it.
fn place_file(file: &Path, report: &mut LoadReport) -> Result<(i32, i32)> {
    let mut region = open_region(file)?;
    let found = probe_region(&mut region, report);
    report.bytes_read += region.bytes_read();
    match (found, region_coords(file)) {
        (Some(found), Some(named)) if found != named => {
            report.misnamed_files.push((file.to_path_buf(), found));
            Ok(found)
        }
        (Some(coords), _) | (None, Some(coords)) => Ok(coords),
        (None, None) => Err(anvil_error(
            file,
            "none of its first chunks names its position (xPos, zPos) and its name is not \
             r.X.Z.mca: cannot tell which region it holds",
        )),
    }
}

/// The region coordinates in a file name `r.X.Z.mca`.
fn region_coords(path: &Path) -> Option<(i32, i32)> {
    let name = path.file_name()?.to_str()?;
    let rest = name.strip_prefix("r.")?.strip_suffix(".mca")?;
    let (x, z) = rest.split_once('.')?;
    Some((x.parse().ok()?, z.parse().ok()?))
}

/// How many stored chunks [`probe_region`] tries: enough to pass a few damaged ones, few
/// enough that a file of compression bombs costs little before it is loaded.
const PROBE_CHUNKS: usize = 8;

/// The region a file's chunks place it in: that of the first of its first [`PROBE_CHUNKS`]
/// chunks whose NBT names a position (`xPos`, `zPos`) matching its slot. What it inflates
/// is charged to the load's budget ([`MAX_LOAD_NBT`]).
fn probe_region<R: std::io::Read + std::io::Seek>(
    region: &mut RegionFile<R>,
    report: &mut LoadReport,
) -> Option<(i32, i32)> {
    for at in region.locations().into_iter().take(PROBE_CHUNKS) {
        let limit = MAX_LOAD_NBT.saturating_sub(report.bytes_inflated);
        if limit == 0 {
            return None;
        }
        let read = region.read(at, usize::try_from(limit).unwrap_or(usize::MAX));
        report.bytes_inflated += read.inflated;
        let Some((x, z)) = read.nbt.ok().as_deref().and_then(chunk::chunk_position) else {
            continue;
        };
        if (x & 31) as usize == at.local_x && (z & 31) as usize == at.local_z {
            // Region coordinates are chunk coordinates divided by 32, rounded down.
            return Some((x >> 5, z >> 5));
        }
    }
    None
}

/// The state of a load: the world being filled, the report, and reused buffers.
struct Loader {
    world: ChunkedWorld,
    loaded_chunks: Vec<(i32, i32)>,
    /// Chunks (sections) holding lava or a hazard, for the danger margin at the end.
    dangerous_chunks: Vec<IVec3>,
    report: LoadReport,
    /// The chunk being decoded, its buffers reused from chunk to chunk.
    column: ChunkColumn,
}

impl Loader {
    /// A loader for `regions`, continuing `report` (what placing the files read and inflated).
    fn new(regions: &[(i32, i32)], report: LoadReport) -> std::result::Result<Self, String> {
        let (mut lo, mut hi) = (
            IVec3::new(i32::MAX, MIN_Y, i32::MAX),
            IVec3::new(i32::MIN, MAX_Y, i32::MIN),
        );
        for &(rx, rz) in regions {
            let size = REGION_CHUNKS * CHUNK_SIZE;
            let (x, z) = (
                i64::from(rx) * i64::from(size),
                i64::from(rz) * i64::from(size),
            );
            let (Ok(x0), Ok(z0), Ok(x1), Ok(z1)) = (
                i32::try_from(x),
                i32::try_from(z),
                i32::try_from(x + i64::from(size)),
                i32::try_from(z + i64::from(size)),
            ) else {
                return Err(format!(
                    "region {rx},{rz} lies outside the coordinate range"
                ));
            };
            lo = lo.min(IVec3::new(x0, MIN_Y, z0));
            hi = hi.max(IVec3::new(x1, MAX_Y, z1));
        }
        let mut world =
            ChunkedWorld::with_bounds(Bounds::new(lo, hi)).map_err(|e| e.to_string())?;
        world
            .set_absent_block(Block::Barrier)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            world,
            loaded_chunks: Vec::new(),
            dangerous_chunks: Vec::new(),
            report,
            column: ChunkColumn::new(),
        })
    }

    /// Loads the chunks of one region file holding region `(rx, rz)`, within the file's and
    /// the load's inflation budgets.
    fn region<R: std::io::Read + std::io::Seek>(
        &mut self,
        mut region: RegionFile<R>,
        (rx, rz): (i32, i32),
        file: &Path,
    ) {
        self.report.region_files += 1;
        let mut region_left = MAX_REGION_NBT;
        for at in region.locations() {
            self.report.chunks_stored += 1;
            let cx = rx * REGION_CHUNKS + at.local_x as i32;
            let cz = rz * REGION_CHUNKS + at.local_z as i32;
            let place = || format!("{} chunk {cx},{cz}", file.display());
            let load_left = MAX_LOAD_NBT.saturating_sub(self.report.bytes_inflated);
            let limit = region_left.min(load_left).min(MAX_CHUNK_NBT as u64) as usize;
            if limit == 0 {
                self.report.skip(SkipReason::OverBudget, place);
                continue;
            }
            let read = region.read(at, limit);
            self.report.bytes_inflated += read.inflated;
            region_left = region_left.saturating_sub(read.inflated);
            let nbt = match read.nbt {
                Ok(nbt) => nbt,
                // Too large for what is left of a budget, not for the chunk cap itself.
                Err(SkipReason::TooLarge) if limit < MAX_CHUNK_NBT => {
                    self.report.skip(SkipReason::OverBudget, place);
                    continue;
                }
                Err(reason) => {
                    self.report.skip(reason, place);
                    continue;
                }
            };
            match self.chunk(&nbt, cx, cz) {
                Ok(()) => {
                    self.report.chunks_loaded += 1;
                    self.loaded_chunks.push((cx, cz));
                }
                Err(reason) => self.report.skip(reason, place),
            }
        }
        self.report.bytes_read += region.bytes_read();
    }

    /// Decodes one chunk's NBT ([`ChunkColumn::decode`]) and, when it is full terrain
    /// stored in its own slot, writes it into the world.
    fn chunk(&mut self, nbt: &[u8], cx: i32, cz: i32) -> std::result::Result<(), SkipReason> {
        self.column.decode(nbt)?;
        if self.column.position() != (cx, cz) {
            return Err(SkipReason::WrongPosition);
        }
        for (slot, (palette, indices)) in self.column.sections().enumerate() {
            let chunk_pos = IVec3::new(cx, MIN_SECTION + slot as i32, cz);
            let written = match palette {
                [] => self.world.fill_chunk_deferred(chunk_pos, Block::Air),
                [block] => self.world.fill_chunk_deferred(chunk_pos, *block),
                _ => self
                    .world
                    .set_chunk_palette_deferred(chunk_pos, palette, indices),
            };
            if palette.iter().any(|b| b.is_dangerous()) {
                self.dangerous_chunks.push(chunk_pos);
            }
            // The bounds cover every slot of every region read, so this cannot fail; a
            // failure would be a loader bug, reported as damaged data rather than a panic.
            written.map_err(|_| SkipReason::BadBlockData)?;
        }
        let report = &mut self.report;
        for (name, count) in self.column.unknown_blocks() {
            *report.unknown_blocks.entry(name.clone()).or_insert(0) += count;
        }
        report.defaulted_properties += self.column.defaulted_properties();
        report.sections_outside += self.column.sections_outside();
        let data_version = self.column.data_version();
        report.data_versions = Some(match report.data_versions {
            Some((lo, hi)) => (lo.min(data_version), hi.max(data_version)),
            None => (data_version, data_version),
        });
        Ok(())
    }

    fn finish(mut self, started: Instant) -> LoadedWorld {
        self.world.rebuild_danger_around(&self.dangerous_chunks);
        self.report.elapsed = started.elapsed();
        self.report.bytes_held = self.world.heap_bytes();
        LoadedWorld {
            world: self.world,
            loaded_chunks: self.loaded_chunks,
            report: self.report,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A region whose slots 0..`chunks` each hold `len` uncompressed bytes in sectors of
    /// their own.
    fn region_of_plain_chunks(chunks: usize, len: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; 8192];
        for slot in 0..chunks {
            let offset = bytes.len() / 4096;
            let sectors = (len + 5).div_ceil(4096);
            bytes[slot * 4..slot * 4 + 4].copy_from_slice(&[0, 0, offset as u8, sectors as u8]);
            bytes.extend_from_slice(&(len as u32 + 1).to_be_bytes());
            bytes.push(3);
            bytes.resize((offset + sectors) * 4096, 0);
        }
        bytes
    }

    /// The load's inflation budget ([`MAX_LOAD_NBT`]) carries over from file to file: with
    /// less left than a chunk needs, the chunk is counted over the budget, and once it is
    /// spent no chunk is read at all. (8 GiB of real inflation is too slow for a test; the
    /// load starts here with most of its budget spent.)
    #[test]
    fn the_load_budget_spans_files_and_stops_reading_when_spent() {
        let region = region_of_plain_chunks(3, 3000);
        let spent = LoadReport {
            bytes_inflated: MAX_LOAD_NBT - 4000,
            ..LoadReport::default()
        };
        let mut loader = Loader::new(&[(0, 0)], spent).unwrap();
        let file = RegionFile::new(std::io::Cursor::new(&region[..])).unwrap();
        loader.region(file, (0, 0), Path::new("r.0.0.mca"));
        let report = &loader.report;
        // The first chunk fits (3000 zeros, then bad NBT), the next two do not.
        assert_eq!(report.skipped(SkipReason::BadNbt), 1, "{report}");
        assert_eq!(report.skipped(SkipReason::OverBudget), 2, "{report}");
        assert_eq!(report.bytes_inflated, MAX_LOAD_NBT - 1000);
        // Spent to the byte: nothing more is read.
        let spent = LoadReport {
            bytes_inflated: MAX_LOAD_NBT,
            ..LoadReport::default()
        };
        let mut loader = Loader::new(&[(0, 0)], spent).unwrap();
        let file = RegionFile::new(std::io::Cursor::new(&region[..])).unwrap();
        loader.region(file, (0, 0), Path::new("r.0.0.mca"));
        assert_eq!(loader.report.skipped(SkipReason::OverBudget), 3);
        assert_eq!(loader.report.bytes_read, 8192);
    }
}
