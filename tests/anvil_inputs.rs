//! Damaged and unusual input to the Minecraft loader (`voxnav::anvil`): typed errors or
//! counted skips, never a panic; chunks built in memory with every compression type and
//! every reason to skip them; and one chunk decoded on its own, as a server plugin feeds them.
#![cfg(feature = "anvil")]

mod support;

use serde::Serialize;
use support::region::{GZIP, LZ4, REGION, UNCOMPRESSED, ZLIB, loaded, region_bytes, region_of};
use voxnav::anvil::{SkipReason, load_region, load_world};
use voxnav::world::is_valid_feet;
use voxnav::{Block, Error, IVec3, VoxelWorld};

#[test]
fn a_file_shorter_than_its_header_is_an_error() {
    let bytes = region_bytes();
    for len in [0, 100, 8191] {
        assert!(
            matches!(load_region(&bytes[..len], 1, 1), Err(Error::Anvil { .. })),
            "{len} bytes"
        );
    }
    let dir = std::env::temp_dir().join(format!("voxnav-anvil-short-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("r.0.0.mca");
    std::fs::write(&file, &bytes[..4000]).unwrap();
    let err = load_world(&file).unwrap_err();
    assert!(err.to_string().contains("8192"), "{err}");
    // In a folder, the same file is a counted bad file and the others still load.
    std::fs::write(dir.join("r.1.1.mca"), &bytes).unwrap();
    let folder = load_world(&dir).unwrap();
    assert_eq!(folder.report.bad_region_files.len(), 1);
    assert_eq!(folder.report.chunks_loaded, 203);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_save_folder_loads_through_its_region_folder() {
    let save = std::env::temp_dir().join(format!("voxnav-anvil-save-{}", std::process::id()));
    std::fs::create_dir_all(save.join("region")).unwrap();
    std::fs::write(save.join("level.dat"), b"not read").unwrap();
    std::fs::copy(REGION, save.join("region").join("r.1.1.mca")).unwrap();
    // Files that are not region files are ignored.
    std::fs::write(save.join("region").join("notes.txt"), b"hello").unwrap();
    let from_save = load_world(&save).unwrap();
    assert_eq!(from_save.report.region_files, 1);
    assert_eq!(from_save.report.chunks_loaded, 203);
    assert_eq!(from_save.loaded_chunks, loaded().loaded_chunks);
    let from_folder = load_world(save.join("region")).unwrap();
    assert_eq!(from_folder.report.chunks_loaded, 203);
    std::fs::remove_dir_all(&save).unwrap();
}

#[test]
fn missing_worlds_and_badly_named_files_are_errors() {
    assert!(matches!(
        load_world("tests/data/minecraft/no-such-world"),
        Err(Error::Io { .. })
    ));
    assert!(matches!(
        load_world("tests/data/minecraft/README.md"),
        Err(Error::Anvil { .. })
    ));
    // A folder without region files.
    let empty = std::env::temp_dir().join(format!("voxnav-anvil-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    assert!(matches!(load_world(&empty), Err(Error::Anvil { .. })));
    std::fs::remove_dir_all(&empty).unwrap();
}

#[test]
fn a_truncated_region_loads_what_it_still_holds() {
    let bytes = region_bytes();
    let half = load_region(&bytes[..bytes.len() / 2], 1, 1).unwrap();
    let report = &half.report;
    assert!(
        report.chunks_loaded > 0 && report.chunks_loaded < 203,
        "{report}"
    );
    assert!(report.skipped(SkipReason::Truncated) > 0, "{report}");
    assert_eq!(report.chunks_stored, 576);
    assert_eq!(
        report.chunks_loaded + report.skipped_total(),
        report.chunks_stored
    );
    // Whatever loaded agrees with the whole file.
    for &(cx, cz) in &half.loaded_chunks {
        let p = IVec3::new(cx * 16 + 7, 60, cz * 16 + 7);
        assert_eq!(half.world.get(p), loaded().world.get(p));
    }
}

#[test]
fn garbage_sectors_and_bad_location_entries_are_counted_skips() {
    let mut bytes = region_bytes();
    let entry = |bytes: &[u8], slot: usize| {
        let e = &bytes[slot * 4..slot * 4 + 4];
        (
            (usize::from(e[0]) << 16) | (usize::from(e[1]) << 8) | usize::from(e[2]),
            usize::from(e[3]),
        )
    };
    let stored: Vec<usize> = (0..1024).filter(|&s| entry(&bytes, s) != (0, 0)).collect();
    // Garbage over the payload (not the length) of five chunks.
    for &slot in &stored[..5] {
        let (offset, _) = entry(&bytes, slot);
        let start = offset * 4096 + 5;
        for (i, b) in bytes[start..start + 2000].iter_mut().enumerate() {
            *b = (i * 131 % 251) as u8;
        }
    }
    // A location inside the header, one past the end of the file, zero sectors, a length
    // of zero, a huge length, an unknown compression, an external .mcc chunk, LZ4 garbage.
    let set_entry = |bytes: &mut Vec<u8>, slot: usize, offset: usize, sectors: u8| {
        bytes[slot * 4..slot * 4 + 4].copy_from_slice(&[
            (offset >> 16) as u8,
            (offset >> 8) as u8,
            offset as u8,
            sectors,
        ]);
    };
    set_entry(&mut bytes, stored[5], 1, 1);
    set_entry(&mut bytes, stored[6], 0xFF_FFFF, 1);
    let (offset7, _) = entry(&bytes, stored[7]);
    set_entry(&mut bytes, stored[7], offset7, 0);
    let header = |bytes: &mut Vec<u8>, slot: usize, length: u32, scheme: u8| {
        let (offset, _) = entry(bytes, slot);
        let at = offset * 4096;
        bytes[at..at + 4].copy_from_slice(&length.to_be_bytes());
        bytes[at + 4] = scheme;
    };
    header(&mut bytes, stored[8], 0, 2);
    header(&mut bytes, stored[9], u32::MAX, 2);
    header(&mut bytes, stored[10], 100, 9);
    header(&mut bytes, stored[11], 1, 130);
    header(&mut bytes, stored[12], 200, 4);
    let damaged = load_region(&bytes, 1, 1).unwrap();
    let report = &damaged.report;
    assert_eq!(report.chunks_stored, 576);
    assert_eq!(
        report.chunks_loaded + report.skipped_total(),
        576,
        "{report}"
    );
    // Inside the header, zero sectors, length zero, a length past its sectors.
    assert_eq!(report.skipped(SkipReason::BadLocation), 4, "{report}");
    assert_eq!(report.skipped(SkipReason::Truncated), 1, "{report}");
    assert_eq!(report.skipped(SkipReason::External), 1, "{report}");
    // Five garbage payloads, the unknown scheme, the LZ4 garbage.
    assert_eq!(report.skipped(SkipReason::BadCompression), 7, "{report}");
    assert!(!report.problems.is_empty());
    // The damaged chunks are unloaded; the untouched full chunks all load.
    let damaged_full = (0..13)
        .filter(|&i| {
            let (cx, cz) = (32 + (stored[i] % 32) as i32, 32 + (stored[i] / 32) as i32);
            loaded().loaded_chunks.contains(&(cx, cz))
        })
        .count();
    assert_eq!(report.chunks_loaded, 203 - damaged_full);
}

#[derive(Serialize)]
struct PaletteEntry {
    #[serde(rename = "Name")]
    name: String,
}

#[derive(Serialize)]
struct BlockStates {
    palette: Vec<PaletteEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<fastnbt::LongArray>,
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

/// A chunk at chunk (x, z) whose section 4 (y 0..16) holds `palette` with `data`, the rest
/// absent (air).
fn chunk_nbt(
    x: i32,
    z: i32,
    data_version: i32,
    status: &str,
    palette: &[&str],
    data: Option<Vec<i64>>,
) -> Vec<u8> {
    fastnbt::to_bytes(&ChunkNbt {
        data_version,
        status: status.to_owned(),
        x_pos: x,
        z_pos: z,
        sections: vec![Section {
            y: 0,
            block_states: BlockStates {
                palette: palette
                    .iter()
                    .map(|name| PaletteEntry {
                        name: (*name).to_owned(),
                    })
                    .collect(),
                data: data.map(fastnbt::LongArray::new),
            },
        }],
    })
    .unwrap()
}

/// The same chunk stored with each compression type the game writes loads to the same
/// blocks: gzip and zlib through flate2, LZ4 in the framing of Java's `LZ4BlockOutputStream`
/// (block sizes from 64 bytes, so that the chunk spans many blocks, to 64 KiB).
#[test]
fn every_compression_type_loads_the_same_chunk() {
    use std::io::Write;

    let mut layers = vec![0i64; 256];
    // Stone at y = 0, and a stripe of stone at y = 2 (longs 32..48 hold that layer).
    for long in &mut layers[..16] {
        *long = 0x1111_1111_1111_1111;
    }
    for long in &mut layers[32..48] {
        *long = 0x0101_0101_0101_0101;
    }
    let nbt = chunk_nbt(
        0,
        0,
        4671,
        "minecraft:full",
        &["air", "stone"],
        Some(layers),
    );
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    zlib.write_all(&nbt).unwrap();
    let zlib = zlib.finish().unwrap();
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(&nbt).unwrap();
    let gzip = gzip.finish().unwrap();
    let lz4 = |block_size: usize| {
        let mut out = Vec::new();
        let mut writer = lz4_java_wrc::Lz4BlockOutput::with_context(
            &mut out,
            lz4_java_wrc::Context::default(),
            block_size,
        )
        .unwrap();
        writer.write_all(&nbt).unwrap();
        writer.flush().unwrap();
        drop(writer);
        out
    };
    let (lz4_small, lz4_large) = (lz4(64), lz4(1 << 16));
    let blocks_of = |scheme, payload: &[u8]| {
        let loaded = load_region(&region_of(&[(0, scheme, payload)]), 0, 0).unwrap();
        assert_eq!(
            loaded.report.chunks_loaded, 1,
            "scheme {scheme}: {}",
            loaded.report
        );
        (0..16)
            .flat_map(|x| (0..4).flat_map(move |y| (0..16).map(move |z| IVec3::new(x, y, z))))
            .map(|p| loaded.world.get(p))
            .collect::<Vec<_>>()
    };
    let plain = blocks_of(UNCOMPRESSED, &nbt);
    assert_eq!(
        plain.iter().filter(|b| **b == Some(Block::Solid)).count(),
        256 + 128
    );
    for (scheme, payload) in [
        (ZLIB, &zlib),
        (GZIP, &gzip),
        (LZ4, &lz4_small),
        (LZ4, &lz4_large),
    ] {
        assert_eq!(blocks_of(scheme, payload), plain, "scheme {scheme}");
    }
    assert!(
        lz4_small.len() > 10 * 21,
        "the small blocks' stream has many headers"
    );
}

#[test]
fn hand_made_chunks_load_or_skip_for_the_right_reason() {
    // Index 1 (stone) in the lowest layer, y = 0: 4 bits per index, 16 per long, so the
    // first 16 longs cover y = 0 (256 cells).
    let mut floor = vec![0i64; 256];
    for long in &mut floor[..16] {
        *long = 0x1111_1111_1111_1111;
    }
    let good = chunk_nbt(
        0,
        0,
        3953,
        "minecraft:full",
        &["air", "stone"],
        Some(floor.clone()),
    );
    let bare_status = chunk_nbt(
        1,
        0,
        2860,
        "full",
        &["minecraft:air", "minecraft:grass"],
        Some(vec![0; 256]),
    );
    let old = chunk_nbt(2, 0, 2730, "full", &["minecraft:stone"], None);
    let not_full = chunk_nbt(3, 0, 4671, "minecraft:features", &["minecraft:stone"], None);
    let wrong_len = chunk_nbt(
        4,
        0,
        4671,
        "minecraft:full",
        &["air", "stone"],
        Some(vec![0; 10]),
    );
    let no_data = chunk_nbt(5, 0, 4671, "minecraft:full", &["air", "stone"], None);
    let unknown = chunk_nbt(6, 0, 4671, "minecraft:full", &["mymod:glowing_rock"], None);
    let misplaced = chunk_nbt(9, 9, 4671, "minecraft:full", &["stone"], None);
    let bad_nbt = vec![10u8, 0, 0, 3, 0, 4, b'D', b'a'];
    // Compounds nested 100000 deep: refused before the recursive deserializer sees them.
    let mut too_deep = vec![10u8, 0, 0];
    for _ in 0..100_000 {
        too_deep.extend_from_slice(&[10, 0, 1, b'x']);
    }
    too_deep.extend(std::iter::repeat_n(0, 100_001));
    let region = region_of(&[
        (0, UNCOMPRESSED, &good),
        (1, UNCOMPRESSED, &bare_status),
        (2, UNCOMPRESSED, &old),
        (3, UNCOMPRESSED, &not_full),
        (4, UNCOMPRESSED, &wrong_len),
        (5, UNCOMPRESSED, &no_data),
        (6, UNCOMPRESSED, &unknown),
        (7, UNCOMPRESSED, &misplaced),
        (8, UNCOMPRESSED, &bad_nbt),
        (10, UNCOMPRESSED, &too_deep),
    ]);
    let loaded = load_region(&region, 0, 0).unwrap();
    let report = &loaded.report;
    assert_eq!(report.chunks_stored, 10);
    assert_eq!(report.chunks_loaded, 3, "{report}");
    assert_eq!(loaded.loaded_chunks, [(0, 0), (1, 0), (6, 0)]);
    assert_eq!(report.skipped(SkipReason::OldFormat), 1);
    assert_eq!(report.skipped(SkipReason::NotFull), 1);
    assert_eq!(report.skipped(SkipReason::BadBlockData), 2);
    assert_eq!(report.skipped(SkipReason::WrongPosition), 1);
    assert_eq!(report.skipped(SkipReason::BadNbt), 2);
    assert_eq!(report.unknown_blocks.get("mymod:glowing_rock"), Some(&1));
    assert_eq!(report.data_versions, Some((2860, 4671)));
    let world = &loaded.world;
    // The good chunk: stone at y = 0, air above and in the absent sections.
    assert_eq!(world.get(IVec3::new(5, 0, 5)), Some(Block::Solid));
    assert_eq!(world.get(IVec3::new(5, 1, 5)), Some(Block::Air));
    assert_eq!(world.get(IVec3::new(5, -30, 5)), Some(Block::Air));
    assert!(is_valid_feet(world, IVec3::new(5, 1, 5), 2));
    // An unknown block is a barrier; skipped chunks are unloaded.
    assert_eq!(
        world.get(IVec3::new(6 * 16 + 2, 3, 2)),
        Some(Block::Barrier)
    );
    assert_eq!(
        world.get(IVec3::new(2 * 16 + 2, 3, 2)),
        Some(Block::Barrier)
    );
    assert!(!world.is_passable(IVec3::new(4 * 16 + 2, 3, 2)));
    // The danger-free world has no danger flags, and an empty chunk list makes no error.
    assert!(world.terrain(IVec3::new(5, 1, 5)).is_plain());
    let empty = load_region(&region_of(&[]), 0, 0).unwrap();
    assert_eq!(empty.report.chunks_loaded, 0);
}

/// Leaves are a floor exactly like a solid block for every rule, and a kind of their own so
/// that the pair picker does not take a tree crown for ground.
#[test]
fn leaves_are_a_solid_floor_but_not_natural_ground() {
    use voxnav::ChunkedWorld;
    use voxnav::world::pick::is_natural_ground;
    let mut world = ChunkedWorld::with_size(IVec3::new(4, 4, 4)).unwrap();
    world.set(IVec3::new(1, 0, 1), Block::Leaves).unwrap();
    world.set(IVec3::new(2, 0, 1), Block::Solid).unwrap();
    for x in [1, 2] {
        let floor = IVec3::new(x, 0, 1);
        assert!(!world.is_passable(floor) && world.is_standable(floor));
        assert_eq!(world.floor_top(floor), 16);
        assert!(world.terrain(floor + IVec3::Y).is_plain());
    }
    assert_eq!(world.block(IVec3::new(1, 0, 1)), Some(Block::Leaves));
    assert!(!is_natural_ground(&world, IVec3::new(1, 1, 1)));
    assert!(is_natural_ground(&world, IVec3::new(2, 1, 1)));
}

/// The plugin's path, one chunk at a time: a chunk decoded on its own and inserted into a
/// world of chunk columns reads exactly as `load_region` loads it (the loader runs the same
/// path), loads at any chunk coordinates (its own), into a nether-height world too, and
/// unloads again.
#[test]
fn a_decoded_chunk_inserted_on_its_own_reads_as_the_loader_loads_it() {
    let mut floor = vec![0i64; 256];
    for long in &mut floor[..16] {
        *long = 0x1111_1111_1111_1111;
    }
    let nbt = chunk_nbt(
        -7,
        40_000,
        4671,
        "minecraft:full",
        &["air", "stone"],
        Some(floor),
    );
    let column = voxnav::anvil::decode_chunk(&nbt).unwrap();
    assert_eq!(column.position(), (-7, 40_000));
    let loaded = load_region(&region_of(&[(25, UNCOMPRESSED, &nbt)]), -1, 1250).unwrap();
    for (min_y, max_y) in [(-64, 320), (0, 256)] {
        let mut world = voxnav::ChunkedWorld::with_height(min_y, max_y).unwrap();
        column.insert_into(&mut world).unwrap();
        assert!(world.is_column_loaded(-7, 40_000));
        for y in min_y..max_y {
            for (x, z) in [(0, 0), (5, 9), (15, 15)] {
                let p = IVec3::new(-7 * 16 + x, y, 40_000 * 16 + z);
                if min_y == -64 {
                    assert_eq!(world.get(p), loaded.world.get(p), "{p}");
                }
                assert_eq!(
                    world.get(p),
                    Some(if y == 0 { Block::Solid } else { Block::Air }),
                    "{p}"
                );
            }
        }
        assert!(world.remove_column(-7, 40_000));
        assert!(world.is_unloaded(IVec3::new(-7 * 16, 0, 40_000 * 16)));
    }
    // A world too low for the chunk's blocks refuses it whole.
    let mut low = voxnav::ChunkedWorld::with_height(-64, -16).unwrap();
    assert!(column.insert_into(&mut low).is_err());
    assert_eq!(low.loaded_column_count(), 0);
}
