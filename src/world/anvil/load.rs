//! Loading whole worlds: [`load_world`] (a save folder, a folder of region files, one file)
//! and [`load_region`] (one region's bytes). Every chunk goes through the path a server
//! plugin uses for one chunk: [`ChunkColumn::decode`], then [`ChunkColumn::insert_into`] a
//! world of chunk columns ([`ChunkedWorld::with_height`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::error::{Error, Result};
use crate::world::chunked::{CHUNK_SIZE, ChunkedWorld};
use crate::world::key::{KEY_MAX, KEY_MIN};

use super::region::RegionFile;
use super::{
    ChunkColumn, LoadReport, LoadedWorld, MAX_CHUNK_NBT, MAX_LOAD_NBT, MAX_REGION_BYTES,
    MAX_REGION_NBT, MAX_Y, MIN_Y, REGION_CHUNKS, SkipReason, chunk,
};

/// Loads a Minecraft Java Edition world: a save folder (holding `region/`), a folder of
/// region files (`*.mca`), or one region file, whatever its name.
///
/// The world is a world of chunk columns ([`ChunkedWorld::with_height`], y from [`MIN_Y`]
/// to [`MAX_Y`]) holding every chunk loaded, each through [`ChunkColumn::insert_into`]: more
/// chunks can be loaded into it, and chunks unloaded, as a server does. Its bounds are the box
/// of the chunks loaded. Each file's chunks go where their own positions say; a file's name
/// `r.X.Z.mca` only cross-checks them (see the module docs).
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
    // Every file's region first, so that copies of one region are told apart before a
    // chunk is read.
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
    report: LoadReport,
    /// The chunk being decoded, its buffers reused from chunk to chunk.
    column: ChunkColumn,
}

impl Loader {
    /// A loader for `regions`, continuing `report` (what placing the files read and inflated).
    fn new(regions: &[(i32, i32)], report: LoadReport) -> std::result::Result<Self, String> {
        let size = i64::from(REGION_CHUNKS * CHUNK_SIZE);
        for &(rx, rz) in regions {
            let (x, z) = (i64::from(rx) * size, i64::from(rz) * size);
            let inside =
                |v: i64| (i64::from(KEY_MIN.x)..=i64::from(KEY_MAX.x) + 1 - size).contains(&v);
            if !inside(x) || !inside(z) {
                return Err(format!(
                    "region {rx},{rz} lies outside the searchable range (x and z from {} to {})",
                    KEY_MIN.x, KEY_MAX.x
                ));
            }
        }
        Ok(Self {
            world: ChunkedWorld::with_height(MIN_Y, MAX_Y).map_err(|e| e.to_string())?,
            loaded_chunks: Vec::new(),
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
    /// stored in its own slot, loads it into the world ([`ChunkColumn::insert_into`]).
    fn chunk(&mut self, nbt: &[u8], cx: i32, cz: i32) -> std::result::Result<(), SkipReason> {
        self.column.decode(nbt)?;
        if self.column.position() != (cx, cz) {
            return Err(SkipReason::WrongPosition);
        }
        // The regions were checked to lie in the searchable range and the world is as tall
        // as a column, so this cannot fail; a failure would be a loader bug, reported as
        // damaged data rather than a panic.
        self.column
            .insert_into(&mut self.world)
            .map_err(|_| SkipReason::BadBlockData)?;
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
