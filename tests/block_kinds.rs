//! Block kinds beyond air and solid: what each one allows and what it costs, and the change
//! log that reports writes.

use glam::IVec3;
use voxnav::engine::{Pathfinder, neighbours};
use voxnav::world::{TerrainFlags, parse_text_world};
use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions, SearchStatus, VoxelWorld};

fn route_cost(world: &ChunkedWorld, costs: MoveCosts, start: IVec3, goal: IVec3) -> Option<u64> {
    let mut pathfinder = Pathfinder::new(Agent::default(), costs).unwrap();
    let result = pathfinder
        .find_path(world, start, goal, &SearchOptions::default())
        .unwrap();
    result.cost
}

/// A 5x3x3 room: floor at y = 0 (`floor_middle` for the three middle cells of row z = 1),
/// `feet_middle` for the three middle feet cells of row z = 1, air above.
fn corridor(floor_middle: char, feet_middle: char) -> ChunkedWorld {
    let f = floor_middle.to_string().repeat(3);
    let m = feet_middle.to_string().repeat(3);
    parse_text_world(&format!(
        "voxnav-world 1\nsize 5 3 3\nlayer 0\n#####\n#{f}#\n#####\n\
         layer 1\n.....\n.{m}.\n.....\nlayer 2\n.....\n.....\n.....\n"
    ))
    .unwrap()
}

const WEST: IVec3 = IVec3::new(0, 1, 1);
const EAST: IVec3 = IVec3::new(4, 1, 1);

#[test]
fn plain_worlds_have_plain_terrain_and_no_climbs() {
    let world = corridor('#', '.');
    for x in 0..5 {
        for z in 0..3 {
            assert_eq!(world.terrain(IVec3::new(x, 1, z)), TerrainFlags::PLAIN);
        }
    }
    let mut moves = Vec::new();
    neighbours(
        &world,
        &Agent::default(),
        &MoveCosts::default(),
        IVec3::new(2, 1, 1),
        &mut moves,
    );
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|m| m.direction.y == 0));
    // Straight along the middle row: four steps of 10.
    assert_eq!(
        route_cost(&world, MoveCosts::default(), WEST, EAST),
        Some(40)
    );
}

#[test]
fn water_is_passable_and_wading_costs_more() {
    let world = corridor('#', '~');
    assert!(world.is_passable(IVec3::new(2, 1, 1)));
    assert!(!world.is_standable(IVec3::new(2, 1, 1)));
    assert_eq!(world.terrain(IVec3::new(2, 1, 1)), TerrainFlags::IN_WATER);
    // Wading costs 40 + 3 * 10 = 70; round the pool by row z = 0 costs 14 + 20 + 14 = 48.
    assert_eq!(
        route_cost(&world, MoveCosts::default(), WEST, EAST),
        Some(48)
    );
    assert_eq!(
        route_cost(&world, MoveCosts::default().with_water(0), WEST, EAST),
        Some(40)
    );
    assert_eq!(
        route_cost(&world, MoveCosts::default().with_water(2), WEST, EAST),
        Some(46)
    );
}

#[test]
fn slow_floor_is_standable_and_walking_on_it_costs_more() {
    let world = corridor('=', '.');
    assert!(world.is_standable(IVec3::new(2, 0, 1)));
    assert!(!world.is_passable(IVec3::new(2, 0, 1)));
    assert_eq!(
        world.terrain(IVec3::new(2, 1, 1)),
        TerrainFlags::ON_SLOW_FLOOR
    );
    assert_eq!(
        route_cost(&world, MoveCosts::default(), WEST, EAST),
        Some(48)
    );
    assert_eq!(
        route_cost(&world, MoveCosts::default().with_slow_floor(1), WEST, EAST),
        Some(43)
    );
}

#[test]
fn lava_is_neither_passable_nor_standable_and_its_neighbours_are_dangerous() {
    let mut world = corridor('#', '.');
    let lava = IVec3::new(2, 0, 2);
    world.set(lava, Block::Lava).unwrap();
    assert!(!world.is_passable(lava));
    assert!(!world.is_standable(lava));
    // Within the 3x3x3 cube: dangerous; one row further: not.
    assert!(
        world
            .terrain(IVec3::new(2, 1, 1))
            .contains(TerrainFlags::NEAR_DANGER)
    );
    assert!(
        world
            .terrain(IVec3::new(3, 1, 1))
            .contains(TerrainFlags::NEAR_DANGER)
    );
    assert!(world.terrain(IVec3::new(2, 1, 0)).is_plain());
    assert!(world.terrain(IVec3::new(4, 1, 1)).is_plain());
    // Past the lava along z = 1 costs 40 + 3 * 40; along z = 0 it costs 48.
    assert_eq!(
        route_cost(&world, MoveCosts::default(), WEST, EAST),
        Some(48)
    );
    assert_eq!(
        route_cost(&world, MoveCosts::default().with_danger(0), WEST, EAST),
        Some(40)
    );
    // Cooling the lava removes the danger.
    world.set(lava, Block::Solid).unwrap();
    assert!(world.terrain(IVec3::new(2, 1, 1)).is_plain());
    assert_eq!(
        route_cost(&world, MoveCosts::default(), WEST, EAST),
        Some(40)
    );
}

#[test]
fn danger_reaches_across_chunk_borders() {
    let mut world = ChunkedWorld::new();
    world
        .fill(IVec3::new(10, 0, 10), IVec3::new(20, 0, 20), Block::Solid)
        .unwrap();
    world.set(IVec3::new(16, 1, 16), Block::Lava).unwrap();
    for feet in [IVec3::new(15, 1, 15), IVec3::new(15, 2, 17)] {
        assert!(
            world.terrain(feet).contains(TerrainFlags::NEAR_DANGER),
            "{feet}"
        );
    }
    assert!(world.terrain(IVec3::new(14, 1, 16)).is_plain());
}

/// Floor at y = 0, a wall 6 high at x = 2, a ladder up its west face at x = 1 (y = 1..=5).
fn ladder_wall(rung: char) -> String {
    let rungs = (1..=5)
        .map(|y| format!("layer {y}\n.{rung}#\n"))
        .collect::<Vec<_>>()
        .concat();
    "voxnav-world 1\nsize 3 9 1\nlayer 0\n###\n".to_string()
        + &rungs
        + "layer 6\n..#\nlayer 7\n...\nlayer 8\n...\n"
}

#[test]
fn ladder_rule_climbs_straight_up_and_down_and_out_of_the_top() {
    let world = parse_text_world(&ladder_wall('H')).unwrap();
    let (start, top) = (IVec3::new(0, 1, 0), IVec3::new(2, 7, 0));
    assert_eq!(
        world.terrain(IVec3::new(1, 2, 0)),
        TerrainFlags::IN_LADDER | TerrainFlags::ON_LADDER
    );
    let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    let up = pathfinder
        .find_path(&world, start, top, &SearchOptions::default())
        .unwrap();
    // Walk onto the ladder (10), five rungs up (5 * (10 + 10)), step onto the wall (20).
    assert_eq!(up.status, SearchStatus::Found);
    assert_eq!(up.cost, Some(130));
    let rungs: Vec<IVec3> = (1..=6).map(|y| IVec3::new(1, y, 0)).collect();
    assert_eq!(&up.path[1..7], &rungs[..]);
    // Down: off the wall onto the ladder's top (drop 1: 12), two rungs down (2 * (2 + 10)),
    // then a drop of 3 to the west (10 + 6), cheaper than the last three rungs.
    let down = pathfinder
        .find_path(&world, top, start, &SearchOptions::default())
        .unwrap();
    assert_eq!(down.cost, Some(12 + 24 + 16));
    assert_eq!(&down.path[1..4], &[rungs[5], rungs[4], rungs[3]]);

    let without = parse_text_world(&ladder_wall('.')).unwrap();
    let none = pathfinder
        .find_path(&without, start, top, &SearchOptions::default())
        .unwrap();
    assert_eq!(none.status, SearchStatus::Unreachable);
}

#[test]
fn change_log_reports_net_changes_cells_and_chunks() {
    let mut world = ChunkedWorld::with_size(IVec3::new(40, 8, 40)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(39, 0, 39), Block::Solid)
        .unwrap();
    assert!(
        world.take_changes().is_empty(),
        "tracking is off by default"
    );
    world.track_changes(true);
    let version = world.version();
    world
        .fill(IVec3::new(15, 0, 3), IVec3::new(17, 0, 3), Block::Water)
        .unwrap();
    world.set(IVec3::new(1, 3, 1), Block::Ladder).unwrap();
    world.set(IVec3::new(1, 3, 1), Block::Air).unwrap();
    world.set(IVec3::new(16, 0, 3), Block::Lava).unwrap();
    world.set(IVec3::new(2, 0, 2), Block::Solid).unwrap(); // already solid
    assert_eq!(world.version(), version + 6);
    let changes = world.take_changes();
    let cells: Vec<(IVec3, Block, Block)> = changes
        .cells
        .iter()
        .map(|c| (c.pos, c.old, c.new))
        .collect();
    assert_eq!(
        cells,
        [
            (IVec3::new(15, 0, 3), Block::Solid, Block::Water),
            (IVec3::new(16, 0, 3), Block::Solid, Block::Lava),
            (IVec3::new(17, 0, 3), Block::Solid, Block::Water),
        ]
    );
    assert_eq!(changes.chunks, [IVec3::new(0, 0, 0), IVec3::new(1, 0, 0)]);
    assert!(world.take_changes().is_empty());
    world.track_changes(false);
    world.set(IVec3::new(5, 5, 5), Block::Solid).unwrap();
    assert!(world.take_changes().is_empty());
}

#[test]
fn column_writes_replace_block_kinds_and_are_logged() {
    let mut world = ChunkedWorld::with_size(IVec3::new(4, 8, 4)).unwrap();
    world.set(IVec3::new(1, 2, 1), Block::Water).unwrap();
    world.set(IVec3::new(1, 5, 1), Block::Lava).unwrap();
    world.track_changes(true);
    world.set_column(1, 1, 0..7, Block::Solid).unwrap();
    for y in 0..7 {
        assert_eq!(
            world.get(IVec3::new(1, y, 1)),
            Some(Block::Solid),
            "y = {y}"
        );
    }
    assert!(
        world.terrain(IVec3::new(2, 5, 2)).is_plain(),
        "the lava is gone, and its danger with it"
    );
    assert_eq!(world.take_changes().cells.len(), 7);
}
