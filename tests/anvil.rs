//! The Minecraft loader (`voxnav::anvil`): the block table against hand-checked states, the
//! loader against the shipped region `tests/data/minecraft/r.1.1.mca`, and damaged inputs.

mod support;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use fastanvil::{Chunk as _, JavaChunk, Region};
use serde::Serialize;
use support::region::{GZIP, LZ4, UNCOMPRESSED, ZLIB, region_of};
use voxnav::anvil::{
    LoadedWorld, SkipReason, StateInfo, block_for_state, load_region, load_world, lookup_state,
    state_info,
};
use voxnav::world::is_valid_feet;
use voxnav::{Block, Error, IVec3, VoxelWorld};

const REGION: &str = "tests/data/minecraft/r.1.1.mca";

/// The table row and block kind of a state given by name and properties; panics (failing the
/// test) when the state is unknown or a property was not recognised.
fn state(name: &str, properties: &[(&str, &str)]) -> (StateInfo, Block) {
    let found = lookup_state(name, properties.iter().copied())
        .unwrap_or_else(|| panic!("{name} is not in the table"));
    assert_eq!(
        found.defaulted, 0,
        "{name} {properties:?}: a property was not recognised or left out"
    );
    (
        state_info(found.id).unwrap(),
        block_for_state(found.id).unwrap(),
    )
}

fn top(name: &str, properties: &[(&str, &str)]) -> u8 {
    state(name, properties).0.collision_top
}

fn block(name: &str, properties: &[(&str, &str)]) -> Block {
    state(name, properties).1
}

#[test]
fn slabs_bottom_top_double() {
    let slab = |kind, wet| {
        state(
            "minecraft:oak_slab",
            &[("type", kind), ("waterlogged", wet)],
        )
    };
    let (bottom, bottom_block) = slab("bottom", "false");
    assert_eq!(bottom.collision_top, 8);
    assert!(!bottom.full_cube && !bottom.water);
    assert_eq!(bottom_block, Block::Floor(8));
    let (top_slab, top_block) = slab("top", "false");
    assert_eq!(top_slab.collision_top, 16);
    assert!(!top_slab.full_cube);
    assert_eq!(top_block, Block::Solid);
    let (double, double_block) = slab("double", "false");
    assert_eq!(double.collision_top, 16);
    assert!(double.full_cube);
    assert_eq!(double_block, Block::Solid);
    // A waterlogged bottom slab is still a floor, and its row says it is wet.
    let (wet, wet_block) = slab("bottom", "true");
    assert!(wet.water && !wet.lava);
    assert_eq!(wet_block, Block::Floor(8));
}

#[test]
fn stairs_are_solid_to_the_top() {
    for half in ["bottom", "top"] {
        let (info, kind) = state(
            "stone_stairs",
            &[
                ("facing", "east"),
                ("half", half),
                ("shape", "straight"),
                ("waterlogged", "false"),
            ],
        );
        assert_eq!(info.collision_top, 16, "{half} stairs");
        assert!(!info.full_cube);
        assert_eq!(kind, Block::Solid);
    }
}

#[test]
fn fences_walls_and_gates_reach_a_block_and_a_half() {
    let fence = [
        ("east", "false"),
        ("north", "true"),
        ("south", "false"),
        ("waterlogged", "false"),
        ("west", "false"),
    ];
    assert_eq!(top("oak_fence", &fence), 24);
    assert_eq!(block("oak_fence", &fence), Block::Fence);
    // A lone fence post (no connections) is still 1.5 tall.
    let post = [
        ("east", "false"),
        ("north", "false"),
        ("south", "false"),
        ("waterlogged", "false"),
        ("west", "false"),
    ];
    assert_eq!(block("spruce_fence", &post), Block::Fence);
    let wall = [
        ("east", "low"),
        ("north", "none"),
        ("south", "none"),
        ("up", "true"),
        ("waterlogged", "false"),
        ("west", "tall"),
    ];
    assert_eq!(top("cobblestone_wall", &wall), 24);
    assert_eq!(block("cobblestone_wall", &wall), Block::Fence);
    let gate = |open| {
        state(
            "oak_fence_gate",
            &[
                ("facing", "north"),
                ("in_wall", "false"),
                ("open", open),
                ("powered", "false"),
            ],
        )
    };
    let (closed, closed_block) = gate("false");
    assert_eq!(closed.collision_top, 24);
    assert!(closed.openable);
    assert_eq!(closed_block, Block::Door);
    let (open, open_block) = gate("true");
    assert_eq!(open.collision_top, 0);
    assert_eq!(open_block, Block::Air);
}

#[test]
fn carpets_are_walked_through() {
    assert_eq!(top("white_carpet", &[]), 1);
    assert_eq!(block("white_carpet", &[]), Block::Air);
    assert_eq!(block("moss_carpet", &[]), Block::Air);
}

#[test]
fn snow_layers_one_to_eight() {
    // Snow's collision is one layer lower than it looks: (layers - 1) * 2 sixteenths.
    let expected = [
        (1, 0, Block::Air),
        (2, 2, Block::Air),
        (3, 4, Block::Floor(4)),
        (4, 6, Block::Floor(6)),
        (5, 8, Block::Floor(8)),
        (6, 10, Block::Floor(10)),
        (7, 12, Block::Floor(12)),
        (8, 14, Block::Floor(14)),
    ];
    for (layers, collision, kind) in expected {
        let layers = layers.to_string();
        let (info, got) = state("snow", &[("layers", &layers)]);
        assert_eq!(info.collision_top, collision, "{layers} layers");
        assert_eq!(got, kind, "{layers} layers");
    }
    assert_eq!(block("snow_block", &[]), Block::Solid);
    assert_eq!(block("powder_snow", &[]), Block::Hazard);
}

#[test]
fn doors_and_trapdoors_open_and_closed() {
    for open in ["false", "true"] {
        let door = [
            ("facing", "south"),
            ("half", "lower"),
            ("hinge", "left"),
            ("open", open),
            ("powered", "false"),
        ];
        let (info, kind) = state("oak_door", &door);
        assert!(info.openable);
        assert_eq!(info.collision_top, 16);
        assert_eq!(kind, Block::Door, "oak door open={open}");
        let (iron, iron_kind) = state("iron_door", &door);
        assert!(!iron.openable);
        assert_eq!(iron_kind, Block::Barrier, "iron door open={open}");
    }
    let trapdoor = |half, open| {
        state(
            "oak_trapdoor",
            &[
                ("facing", "north"),
                ("half", half),
                ("open", open),
                ("powered", "false"),
                ("waterlogged", "false"),
            ],
        )
    };
    let (closed_bottom, kind) = trapdoor("bottom", "false");
    assert_eq!(closed_bottom.collision_top, 3);
    assert_eq!(kind, Block::Air);
    let (closed_top, kind) = trapdoor("top", "false");
    assert_eq!(closed_top.collision_top, 16);
    assert_eq!(kind, Block::Solid);
    // Open, it hangs on one side as a full-height panel: walked past.
    let (open, kind) = trapdoor("bottom", "true");
    assert_eq!(open.collision_top, 16);
    assert!(open.openable);
    assert_eq!(kind, Block::Air);
}

#[test]
fn water_lava_and_waterlogged_states() {
    let (water, kind) = state("water", &[("level", "0")]);
    assert!(water.water && water.is_liquid() && !water.lava);
    assert_eq!(water.collision_top, 0);
    assert_eq!(kind, Block::Water);
    assert_eq!(block("water", &[("level", "7")]), Block::Water);
    let (lava, kind) = state("lava", &[("level", "0")]);
    assert!(lava.lava && lava.damaging && lava.is_liquid());
    assert_eq!(kind, Block::Lava);
    assert_eq!(block("seagrass", &[]), Block::Water);
    // A waterlogged block without collision is water; a dry one is air.
    let coral = |wet| block("tube_coral", &[("waterlogged", wet)]);
    assert_eq!(coral("true"), Block::Water);
    assert_eq!(coral("false"), Block::Air);
    // A waterlogged block with collision keeps its shape.
    let wet_fence = [
        ("east", "false"),
        ("north", "false"),
        ("south", "false"),
        ("waterlogged", "true"),
        ("west", "false"),
    ];
    assert!(state("oak_fence", &wet_fence).0.water);
    assert_eq!(block("oak_fence", &wet_fence), Block::Fence);
}

#[test]
fn climbable_slow_and_damaging_blocks() {
    let (ladder, kind) = state("ladder", &[("facing", "north"), ("waterlogged", "false")]);
    assert!(ladder.climbable);
    assert_eq!(kind, Block::Ladder);
    for vine in [
        "twisting_vines_plant",
        "weeping_vines_plant",
        "cave_vines_plant",
    ] {
        assert!(
            lookup_state(vine, [])
                .and_then(|s| block_for_state(s.id))
                .is_some_and(|b| b == Block::Ladder),
            "{vine}"
        );
    }
    assert_eq!(block("cobweb", &[]), Block::Cobweb);
    assert!(state("cobweb", &[]).0.slowing);
    assert_eq!(block("soul_sand", &[]), Block::SlowFloor);
    assert_eq!(block("honey_block", &[]), Block::SlowFloor);
    assert_eq!(block("magma_block", &[]), Block::Hazard);
    assert_eq!(block("cactus", &[("age", "0")]), Block::Hazard);
    assert_eq!(block("wither_rose", &[]), Block::Hazard);
    let campfire = |lit| {
        block(
            "campfire",
            &[
                ("facing", "north"),
                ("lit", lit),
                ("signal_fire", "false"),
                ("waterlogged", "false"),
            ],
        )
    };
    assert_eq!(campfire("true"), Block::Hazard);
    assert_eq!(campfire("false"), Block::Floor(7));
    assert_eq!(
        block(
            "oak_leaves",
            &[
                ("distance", "7"),
                ("persistent", "false"),
                ("waterlogged", "false")
            ]
        ),
        Block::Leaves
    );
    assert_eq!(
        block(
            "cherry_leaves",
            &[
                ("distance", "1"),
                ("persistent", "true"),
                ("waterlogged", "true")
            ]
        ),
        Block::Leaves
    );
    assert_eq!(block("short_grass", &[]), Block::Air);
    assert_eq!(
        block("barrier", &[("waterlogged", "false")]),
        Block::Barrier
    );
}

#[test]
fn old_names_and_unknown_input() {
    // 1.18-1.20.2 wrote `grass` for the plant now called `short_grass`.
    let old = lookup_state("minecraft:grass", []).unwrap();
    assert_eq!(old, lookup_state("short_grass", []).unwrap());
    let chain = [("axis", "y"), ("waterlogged", "false")];
    assert_eq!(
        lookup_state("chain", chain).unwrap(),
        lookup_state("iron_chain", chain).unwrap()
    );
    assert_eq!(lookup_state("minecraft:no_such_block", []), None);
    assert_eq!(lookup_state("othermod:stone", []), None);
    // An unknown property value takes the default and is counted.
    let odd = lookup_state("snow", [("layers", "12")]).unwrap();
    assert_eq!(odd.defaulted, 1);
    assert_eq!(odd.id, lookup_state("snow", [("layers", "1")]).unwrap().id);
}

// ---------------------------------------------------------------------------------------
// The loader against the shipped region r.1.1.mca (block x and z 512..1024).

fn region_bytes() -> Vec<u8> {
    std::fs::read(REGION).expect("the test region is shipped in tests/data/minecraft")
}

fn loaded() -> &'static LoadedWorld {
    static LOADED: OnceLock<LoadedWorld> = OnceLock::new();
    LOADED.get_or_init(|| load_world(REGION).expect("the shipped region loads"))
}

#[test]
fn the_region_loads_its_full_chunks_and_counts_the_rest() {
    let report = &loaded().report;
    assert_eq!(report.region_files, 1);
    assert_eq!(report.chunks_stored, 576);
    assert_eq!(report.chunks_loaded, 203);
    assert_eq!(report.skipped(SkipReason::NotFull), 373);
    assert_eq!(report.skipped_total(), 373, "{report}");
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert!(
        report.unknown_blocks.is_empty(),
        "{:?}",
        report.unknown_blocks
    );
    assert_eq!(report.defaulted_properties, 0);
    assert_eq!(report.sections_outside, 0);
    assert_eq!(report.data_versions, Some((4671, 4671)));
    assert_eq!(loaded().loaded_chunks.len(), 203);
    // The budget: at most 64 KiB held per loaded chunk column.
    assert!(
        report.bytes_held <= 64 * 1024 * report.chunks_loaded,
        "{} bytes for {} chunks",
        report.bytes_held,
        report.chunks_loaded
    );
}

#[test]
fn the_same_bytes_load_the_same_world_from_memory() {
    let from_memory = load_region(&region_bytes(), 1, 1).unwrap();
    assert_eq!(from_memory.report.chunks_loaded, 203);
    assert_eq!(from_memory.loaded_chunks, loaded().loaded_chunks);
    for p in [
        IVec3::new(706, 67, 515),
        IVec3::new(557, -20, 522),
        IVec3::new(600, 10, 600),
    ] {
        assert_eq!(from_memory.world.get(p), loaded().world.get(p));
    }
}

/// The igloo: a bed, white carpet, a furnace and a crafting table, in chunk (44, 32).
#[test]
fn known_cells_by_name() {
    let world = &loaded().world;
    let at = |x, y, z| world.get(IVec3::new(x, y, z)).unwrap();
    // red_bed, foot and head: beds are 9/16 tall.
    assert_eq!(at(706, 67, 515), Block::Floor(9));
    assert_eq!(at(707, 67, 515), Block::Floor(9));
    // white_carpet is walked through: the feet stand in it, on the igloo's snow floor.
    assert_eq!(at(705, 67, 516), Block::Air);
    assert!(is_valid_feet(world, IVec3::new(705, 67, 516), 2));
    assert_eq!(at(705, 67, 519), Block::Solid, "furnace");
    assert_eq!(at(707, 67, 519), Block::Solid, "crafting table");
    // One layer of snow outside the igloo is walked through.
    assert_eq!(at(706, 61, 512), Block::Air);
    // A cobweb in a cave.
    assert_eq!(at(557, -20, 522), Block::Cobweb);
    // Bedrock floors the world.
    assert_eq!(at(706, -64, 515), Block::Solid);
}

#[test]
fn unloaded_chunks_are_neither_passable_nor_standable() {
    let loaded = loaded();
    let world = &loaded.world;
    let unloaded = (32..64)
        .flat_map(|cz| (32..64).map(move |cx| (cx, cz)))
        .find(|c| !loaded.loaded_chunks.contains(c))
        .unwrap();
    for y in [-64, 0, 64, 200, 319] {
        let p = IVec3::new(unloaded.0 * 16 + 3, y, unloaded.1 * 16 + 9);
        assert!(!world.is_passable(p) && !world.is_standable(p), "{p}");
        assert_eq!(world.get(p), Some(Block::Barrier));
    }
    // Outside the region there is no world at all.
    assert_eq!(world.get(IVec3::new(511, 64, 600)), None);
    assert_eq!(world.get(IVec3::new(600, 320, 600)), None);
    assert_eq!(world.get(IVec3::new(600, -65, 600)), None);
}

/// Our block kind counts in the igloo's chunk column.
fn kind_counts(world: &voxnav::ChunkedWorld, cx: i32, cz: i32) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for y in -64..320 {
        for z in 0..16 {
            for x in 0..16 {
                let block = world.get(IVec3::new(cx * 16 + x, y, cz * 16 + z)).unwrap();
                *counts.entry(format!("{block:?}")).or_insert(0) += 1;
            }
        }
    }
    counts
}

#[test]
fn block_counts_in_the_igloo_chunk() {
    let counts = kind_counts(&loaded().world, 44, 32);
    let count = |kind: &str| counts.get(kind).copied().unwrap_or(0);
    assert_eq!(counts.values().sum::<usize>(), 16 * 384 * 16);
    // Counted by name through fastanvil: 30 lava, 2 bed halves (the only 9/16 blocks).
    assert_eq!(count("Lava"), 30);
    assert_eq!(count("Floor(9)"), 2);
    assert_eq!(count("Barrier"), 0);
    assert_eq!(count("Water"), 0);
    // Solid: every full block, the furnace and the crafting table, the ice; air: air,
    // carpets, plants, one- and two-layer snow, the torch.
    assert_eq!(count("Solid"), SOLID_IN_IGLOO_CHUNK, "{counts:?}");
    assert_eq!(count("Air"), AIR_IN_IGLOO_CHUNK, "{counts:?}");
}

/// The kinds of every cell of a chunk decoded a second, independent way (fastanvil's
/// `JavaChunk`: its own region reading, NBT structs, index unpacking and coordinates) agree
/// with the loaded world. fastanvil drops `waterlogged`, so states with that property are
/// left out of the comparison.
#[test]
fn loaded_cells_match_an_independent_decode() {
    let world = &loaded().world;
    let bytes = region_bytes();
    let mut region = Region::from_stream(std::io::Cursor::new(&bytes[..])).unwrap();
    let mut compared = 0usize;
    let chunks = &loaded().loaded_chunks;
    // The igloo, the first, a middle and the last loaded chunk, and a stored chunk that is
    // not full.
    let not_full = (32..64)
        .flat_map(|cz| (32..64).map(move |cx| (cx, cz)))
        .find(|&(cx, cz)| {
            !chunks.contains(&(cx, cz))
                && matches!(
                    region.read_chunk((cx - 32) as usize, (cz - 32) as usize),
                    Ok(Some(_))
                )
        })
        .unwrap();
    for (cx, cz) in [(44, 32), chunks[0], chunks[100], chunks[202], not_full] {
        let nbt = region
            .read_chunk((cx - 32) as usize, (cz - 32) as usize)
            .unwrap()
            .unwrap();
        let chunk = JavaChunk::from_bytes(&nbt).unwrap();
        let full = chunk.status() == "minecraft:full";
        assert_eq!(
            full,
            loaded().loaded_chunks.contains(&(cx, cz)),
            "chunk {cx},{cz}"
        );
        if !full {
            continue;
        }
        for y in -64..320 {
            for z in 0..16 {
                for x in 0..16 {
                    let block = chunk.block(x, y as isize, z).unwrap();
                    let (name, props) = block.encoded_description().split_once('|').unwrap();
                    let props: Vec<(&str, &str)> = props
                        .split(',')
                        .filter(|p| !p.is_empty())
                        .map(|p| p.split_once('=').unwrap())
                        .collect();
                    let state = lookup_state(name, props.iter().copied()).unwrap();
                    if state.defaulted > 0 {
                        continue; // waterlogged was dropped
                    }
                    let p = IVec3::new(cx * 16 + x as i32, y, cz * 16 + z as i32);
                    assert_eq!(
                        world.get(p),
                        block_for_state(state.id),
                        "{p}: {}",
                        block.encoded_description()
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(
        compared > 4 * 16 * 384 * 16 - 10_000,
        "{compared} cells compared"
    );
}

/// 98304 cells less 67628 air-like, 30 lava and 2 bed halves; fastanvil names them: 67358
/// air, 240 snow of one or two layers, 12 carpets, 17 plants and lichen, 1 torch.
const SOLID_IN_IGLOO_CHUNK: usize = 30_644;
const AIR_IN_IGLOO_CHUNK: usize = 67_628;

// ---------------------------------------------------------------------------------------
// Damaged and unusual input: typed errors or counted skips, never a panic.

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
