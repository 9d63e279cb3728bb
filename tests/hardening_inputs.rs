//! Memory and time bombs in inputs (issue 26 items 6 to 13): each hostile input is refused
//! quickly with a typed error, or loaded reading and holding only what it needs; ordinary
//! inputs still load.

use voxnav::world::{DenseWorld, parse_movingai_3dmap};
use voxnav::{Error, IVec3};

// The examples' shared code, whole: the tests below check its Minecraft part, and its own unit
// tests run in this binary (it is a directory of the package, not a crate with a test target).
#[path = "../examples/support/src/mod.rs"]
mod example_support;

/// Issue 26 item 6: the 21-byte map `voxel 46340 1 46340` holds 2^31 cells, under the old cell
/// cap, but one cell of height costs a whole 64-bit word per column: 16 GiB. It is refused
/// before anything is allocated, naming the bytes; a normal map still loads.
#[test]
fn a_flat_3dmap_header_asking_for_gigabytes_is_refused() {
    let reproducer = "voxel 46340 1 46340\n";
    assert_eq!(reproducer.len(), 20);
    match parse_movingai_3dmap(reproducer) {
        Err(Error::Parse {
            line: 1, message, ..
        }) => assert!(message.contains("bytes"), "{message}"),
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(DenseWorld::new(IVec3::new(46_340, 1, 46_340)).is_err());
    let world = parse_movingai_3dmap("voxel 300 1 300\n1 0 1\n").unwrap();
    assert_eq!(world.free_cells(), 300 * 300 - 1);
    let world = parse_movingai_3dmap(
        &std::fs::read_to_string("tests/data/movingai3d/Simple.3dmap").unwrap(),
    )
    .unwrap();
    assert!(world.free_cells() > 0);
}

#[cfg(feature = "anvil")]
mod support;

/// Region files built for the Anvil tests: a valid chunk's NBT, a scratch folder.
#[cfg(feature = "anvil")]
mod region_files {
    use serde::Serialize;

    #[derive(Serialize)]
    struct PaletteEntry {
        #[serde(rename = "Name")]
        name: String,
    }

    #[derive(Serialize)]
    struct BlockStates {
        palette: Vec<PaletteEntry>,
    }

    #[derive(Serialize)]
    struct Section {
        #[serde(rename = "Y")]
        y: i8,
        block_states: BlockStates,
    }

    #[derive(Serialize)]
    struct ChunkNbt {
        #[serde(rename = "DataVersion")]
        data_version: i32,
        #[serde(rename = "Status")]
        status: String,
        #[serde(rename = "xPos")]
        x_pos: i32,
        #[serde(rename = "zPos")]
        z_pos: i32,
        sections: Vec<Section>,
    }

    /// A full 1.21 chunk at chunk `(x, z)` whose section 0 (y 0..16) is all stone.
    pub fn stone_chunk(x: i32, z: i32) -> Vec<u8> {
        fastnbt::to_bytes(&ChunkNbt {
            data_version: 4671,
            status: "minecraft:full".to_owned(),
            x_pos: x,
            z_pos: z,
            sections: vec![Section {
                y: 0,
                block_states: BlockStates {
                    palette: vec![PaletteEntry {
                        name: "minecraft:stone".to_owned(),
                    }],
                },
            }],
        })
        .unwrap()
    }

    /// An empty scratch folder for one test.
    pub fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("voxnav-inputs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

/// Issue 26 item 8: a 28 KB region whose 1 024 slots all point at one payload inflating to
/// just under the chunk cap took 6.9 s (16 GiB inflated). Slots sharing sectors are refused
/// before anything is inflated.
#[cfg(feature = "anvil")]
#[test]
fn slots_sharing_one_payload_are_refused_uninflated() {
    use support::region::{ZLIB, region_of, zlib_zeros};
    use voxnav::anvil::{MAX_CHUNK_NBT, SkipReason, load_region};
    let payload = zlib_zeros((MAX_CHUNK_NBT - 1) / 258);
    let mut region = region_of(&[(0, ZLIB, &payload)]);
    assert!(region.len() < 32 * 1024);
    let entry: [u8; 4] = region[..4].try_into().unwrap();
    for slot in 1..1024 {
        region[slot * 4..slot * 4 + 4].copy_from_slice(&entry);
    }
    let loaded = load_region(&region, 0, 0).unwrap();
    let report = &loaded.report;
    assert_eq!(report.chunks_stored, 1024);
    assert_eq!(report.skipped(SkipReason::SharedSectors), 1024, "{report}");
    assert_eq!(report.bytes_inflated, 0);
    // Two slots whose sector ranges merely overlap (the second starts inside the first) are
    // both refused; a third slot of its own still loads.
    let chunk = region_files::stone_chunk(2, 0);
    let mut region = region_of(&[
        (0, ZLIB, &payload),
        (2, support::region::UNCOMPRESSED, &chunk),
    ]);
    let sectors = region[3];
    assert!(sectors >= 2);
    region[4..8].copy_from_slice(&[0, 0, 3, 1]);
    let loaded = load_region(&region, 0, 0).unwrap();
    let report = &loaded.report;
    assert_eq!(report.skipped(SkipReason::SharedSectors), 2, "{report}");
    assert_eq!(loaded.loaded_chunks, [(2, 0)], "{report}");
}

/// Issue 26 item 8: 1 024 different payloads, each inflating to just under the chunk cap,
/// would inflate 16 GiB; the region's budget stops the work after [`MAX_REGION_NBT`] bytes
/// and counts the rest as over the budget.
#[cfg(feature = "anvil")]
#[test]
fn a_region_of_bombs_stops_at_its_inflation_budget() {
    use support::region::{ZLIB, region_of, zlib_zeros};
    use voxnav::anvil::{MAX_CHUNK_NBT, MAX_REGION_NBT, SkipReason, load_region};
    let payload = zlib_zeros((MAX_CHUNK_NBT - 1) / 258);
    let chunks: Vec<(usize, u8, &[u8])> =
        (0..1024).map(|slot| (slot, ZLIB, &payload[..])).collect();
    let region = region_of(&chunks);
    let loaded = load_region(&region, 0, 0).unwrap();
    let report = &loaded.report;
    assert_eq!(report.chunks_stored, 1024);
    // Zeros are no NBT: the chunks inflated within the budget are bad NBT, the rest over it.
    let inflated = report.skipped(SkipReason::BadNbt);
    assert!((15..=17).contains(&inflated), "{report}");
    assert_eq!(
        report.skipped(SkipReason::OverBudget),
        1024 - inflated,
        "{report}"
    );
    // The probe for the region's position inflates at most a few chunks more.
    assert!(
        report.bytes_inflated <= MAX_REGION_NBT + 8 * MAX_CHUNK_NBT as u64 + (64 << 10),
        "{}",
        report.bytes_inflated
    );
}

/// Issue 26 item 9: a sparse region file of the largest size accepted holding one small chunk
/// was read whole (1 GB resident). Only the header and that chunk's sectors are read.
#[cfg(feature = "anvil")]
#[test]
fn a_sparse_region_file_is_read_only_where_its_chunks_are() {
    use std::io::Write as _;
    use support::region::{UNCOMPRESSED, region_of};
    use voxnav::anvil::{MAX_REGION_BYTES, load_world};
    let dir = region_files::scratch("sparse");
    let file = dir.join("r.0.0.mca");
    let chunk = region_files::stone_chunk(5, 7);
    let bytes = region_of(&[(7 * 32 + 5, UNCOMPRESSED, &chunk)]);
    let mut handle = std::fs::File::create(&file).unwrap();
    handle.write_all(&bytes).unwrap();
    handle.set_len(MAX_REGION_BYTES).unwrap();
    drop(handle);
    let loaded = load_world(&file).unwrap();
    let report = &loaded.report;
    assert_eq!(loaded.loaded_chunks, [(5, 7)], "{report}");
    // The header twice (placing the file, then loading it) and the chunk's sector twice.
    assert!(
        report.bytes_read <= 2 * (8192 + 4096),
        "{}",
        report.bytes_read
    );
    assert_eq!(
        loaded.world.get(IVec3::new(5 * 16, 3, 7 * 16)),
        Some(voxnav::Block::Solid)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 26 item 13: a region file is placed by its chunks' own positions; its name only
/// cross-checks them. A renamed copy of the sample region loads the same chunks, a name that
/// disagrees is reported, and a copy beside the original in a folder is loaded once.
#[cfg(feature = "anvil")]
#[test]
fn a_renamed_region_file_loads_where_its_chunks_say() {
    use voxnav::anvil::load_world;
    const SAMPLE: &str = "tests/data/minecraft/r.1.1.mca";
    let original = load_world(SAMPLE).unwrap();
    assert_eq!(original.report.chunks_loaded, 203);
    assert!(original.report.misnamed_files.is_empty());
    let dir = region_files::scratch("renamed");
    for name in ["backup of my world.mca", "download", "r.5.-2.mca"] {
        let file = dir.join(name);
        std::fs::copy(SAMPLE, &file).unwrap();
        let loaded = load_world(&file).unwrap();
        assert_eq!(loaded.loaded_chunks, original.loaded_chunks, "{name}");
        assert_eq!(loaded.world.world_bounds(), original.world.world_bounds());
        let misnamed = &loaded.report.misnamed_files;
        if name.starts_with("r.") {
            assert_eq!(misnamed, &[(file.clone(), (1, 1))], "{name}");
            assert!(loaded.report.to_string().contains("holds region 1,1"));
        } else {
            assert!(misnamed.is_empty(), "{name}");
        }
        std::fs::remove_file(&file).unwrap();
    }
    // In a folder: the original and a copy under another name hold the same region.
    std::fs::copy(SAMPLE, dir.join("r.1.1.mca")).unwrap();
    std::fs::copy(SAMPLE, dir.join("copy.mca")).unwrap();
    let folder = load_world(&dir).unwrap();
    assert_eq!(folder.report.chunks_loaded, 203);
    assert_eq!(folder.report.bad_region_files.len(), 1, "{}", folder.report);
    assert!(folder.report.bad_region_files[0].1.contains("region 1,1"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 26 item 11: a path that is neither a folder nor a regular file (`/dev/zero`) says
/// what was expected, instead of only "Not a directory".
#[cfg(all(feature = "anvil", unix))]
#[test]
fn a_device_is_no_world_and_the_error_says_what_is() {
    let err = voxnav::anvil::load_world("/dev/zero").unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, Error::Anvil { .. }), "{err:?}");
    assert!(
        message.contains("/dev/zero")
            && message.contains("neither a folder nor a regular file")
            && message.contains("region/"),
        "{message}"
    );
}

/// Issue 26 item 7: `examples/minecraft` aborted on a world of regions 0,0 and 1000,1000 (a
/// 786 GB picture). The picture of two chunks that far apart is drawn at a scale that fits
/// [`MAX_PICTURE_PIXELS`], and both chunks show in it.
#[cfg(feature = "anvil")]
#[test]
fn the_picture_of_far_apart_regions_fits_the_cap() {
    use example_support::minecraft::{MAX_PICTURE_PIXELS, Map};
    use support::region::{UNCOMPRESSED, region_of};
    let dir = region_files::scratch("far-apart");
    for (name, (cx, cz)) in [("r.0.0.mca", (0, 0)), ("r.1000.1000.mca", (32_000, 32_000))] {
        let chunk = region_files::stone_chunk(cx, cz);
        std::fs::write(dir.join(name), region_of(&[(0, UNCOMPRESSED, &chunk)])).unwrap();
    }
    let loaded = voxnav::anvil::load_world(&dir).unwrap();
    assert_eq!(
        loaded.loaded_chunks,
        [(0, 0), (32_000, 32_000)],
        "{}",
        loaded.report
    );
    let map = Map::new(&loaded);
    let (width, height) = (map.image.width(), map.image.height());
    assert!(u64::from(width) * u64::from(height) <= MAX_PICTURE_PIXELS);
    assert!(map.scale > 100, "{}", map.scale);
    let black = [0, 0, 0];
    assert_ne!(map.image.get(0, 0), Some(black));
    let far = i64::from(32_000 * 16 / map.scale);
    assert_ne!(map.image.get(far, far), Some(black));
    assert_eq!(map.image.get(far / 2, far / 2), Some(black));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 26 item 11: `minecraft --pairs 100000 --max-distance 100000` drew 20 million
/// start/goal pairs, reading columns for each, for over a minute before saying it found no
/// surface positions. The draws are capped, a goal outside the loaded chunks costs a set
/// lookup, and the message says why no pair was found.
#[cfg(feature = "anvil")]
#[test]
fn hopeless_pairs_give_up_after_bounded_draws_and_say_why() {
    use example_support::minecraft::{MAX_TRIES, pick_pairs};
    use support::region::{UNCOMPRESSED, region_of};
    use voxnav::Agent;
    let chunk = region_files::stone_chunk(3, 4);
    let loaded =
        voxnav::anvil::load_region(&region_of(&[(4 * 32 + 3, UNCOMPRESSED, &chunk)]), 0, 0)
            .unwrap();
    assert_eq!(loaded.report.chunks_loaded, 1);
    let picked = pick_pairs(&loaded, &Agent::default(), 100_000, 1, 100_000);
    assert_eq!(picked.tries, MAX_TRIES);
    assert!(picked.pairs.len() < 10, "{}", picked.pairs.len());
    assert_eq!(picked.starts_without_surface, 0);
    assert!(picked.goals_outside > MAX_TRIES * 99 / 100);
    let why = picked.shortfall(100_000, &loaded, 100_000).unwrap();
    assert!(
        why.contains("outside the loaded chunks")
            && why.contains("16 x 16 blocks")
            && why.contains("--max-distance 100000"),
        "{why}"
    );
    // The same world with goals close by gives every pair asked for.
    let near = pick_pairs(&loaded, &Agent::default(), 50, 1, 8);
    assert_eq!(near.pairs.len(), 50);
    assert!(near.shortfall(50, &loaded, 8).is_none());
    for (start, goal) in &near.pairs {
        assert_eq!((start.y, goal.y), (16, 16));
    }
}

/// Issue 21 item 1 (its Anvil part): one chunk's NBT decodes on its own to its position and
/// blocks, through the path `load_world` uses; every stored chunk of the sample region decodes
/// to what the load wrote, or fails for the reason the load counted.
#[cfg(feature = "anvil")]
#[test]
fn each_chunk_decodes_on_its_own_as_load_world_writes_it() {
    use std::collections::BTreeMap;
    use voxnav::anvil::{ChunkColumn, MAX_Y, MIN_Y, SkipReason, load_world};
    const SAMPLE: &str = "tests/data/minecraft/r.1.1.mca";
    let loaded = load_world(SAMPLE).unwrap();
    let bytes = std::fs::read(SAMPLE).unwrap();
    let mut region = fastanvil::Region::from_stream(std::io::Cursor::new(&bytes[..])).unwrap();
    let mut column = ChunkColumn::new();
    let mut skipped: BTreeMap<SkipReason, usize> = BTreeMap::new();
    let (mut decoded, mut cells) = (0, 0u64);
    for local_z in 0..32 {
        for local_x in 0..32 {
            let Some(nbt) = region.read_chunk(local_x, local_z).unwrap() else {
                continue;
            };
            let (cx, cz) = (32 + local_x as i32, 32 + local_z as i32);
            if let Err(reason) = column.decode(&nbt) {
                *skipped.entry(reason).or_insert(0) += 1;
                assert!(!loaded.loaded_chunks.contains(&(cx, cz)));
                continue;
            }
            assert_eq!(column.position(), (cx, cz));
            assert!(loaded.loaded_chunks.contains(&(cx, cz)));
            assert_eq!(column.data_version(), 4671);
            decoded += 1;
            // Every fourth chunk cell by cell (all of them take long in a debug build).
            if decoded % 4 != 0 {
                continue;
            }
            for y in MIN_Y..MAX_Y {
                for z in 0..16 {
                    for x in 0..16 {
                        let p = IVec3::new(cx * 16 + x, y, cz * 16 + z);
                        assert_eq!(column.get(x, y, z), loaded.world.get(p), "{p}");
                        cells += 1;
                    }
                }
            }
        }
    }
    assert_eq!(decoded, loaded.report.chunks_loaded);
    assert_eq!(skipped, loaded.report.skipped, "{}", loaded.report);
    assert!(cells > 4_000_000, "{cells}");
    assert_eq!(column.get(16, 0, 0), None);
    assert_eq!(column.get(0, MAX_Y, 0), None);
    assert_eq!(column.get(0, i32::MIN, 0), None);
}

/// A decoded chunk column prints a summary, not its 98 304 block indices.
#[cfg(feature = "anvil")]
#[test]
fn a_chunk_column_debug_output_is_a_summary() {
    let column = voxnav::anvil::ChunkColumn::new();
    let text = format!("{column:?}");
    assert!(text.len() < 200 && text.contains("position"), "{text}");
}
