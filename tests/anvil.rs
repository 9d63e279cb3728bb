//! The Minecraft loader (`voxnav::anvil`): the block table against hand-checked states, and the
//! loader against the shipped region `tests/data/minecraft/r.1.1.mca`. Damaged and unusual
//! inputs are in `tests/anvil_inputs.rs`.

mod support;

use std::collections::BTreeMap;

use fastanvil::{Chunk as _, JavaChunk, Region};
use support::region::{loaded, region_bytes};
use voxnav::anvil::{
    SkipReason, StateInfo, block_for_state, load_region, lookup_state, state_info,
};
use voxnav::world::is_valid_feet;
use voxnav::{Block, IVec3, VoxelWorld};

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
