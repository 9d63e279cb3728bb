//! The Minecraft loader (`voxnav::anvil`): the block table against hand-checked states, the
//! loader against the shipped region `tests/data/minecraft/r.1.1.mca`, and damaged inputs.

use voxnav::anvil::{StateInfo, block_for_state, lookup_state, state_info};
use voxnav::{Block, IVec3};

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
        Block::Solid
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
    let _ = IVec3::ZERO;
}
