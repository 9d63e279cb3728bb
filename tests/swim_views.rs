//! Rule 8 of `voxnav::moves` on side-view worlds a person can check by eye: walkers that swim
//! at the surface of water, and the water modes (wade, swim, avoid). The property tests are in
//! `tests/swim.rs`.
//!
//! Side views list the layers top first; each row is one layer `y` of a world one cell deep
//! (z = 0), characters are x: `#` solid, `.` air, `~` water.

use voxnav::engine::{MoveKind, Pathfinder, move_in_direction, neighbours};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::moves::MAX_WATER_DROP;
use voxnav::moves::agent::WaterMode;
use voxnav::world::InvalidFeet;
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, SearchStatus, check_path,
};

const EAST: IVec3 = IVec3::new(1, 0, 0);

/// A world one cell deep from a side view (top layer first).
fn side_view(rows: &[&str]) -> ChunkedWorld {
    let sy = rows.len() as i32;
    let sx = rows[0].len() as i32;
    let mut world = ChunkedWorld::with_size(IVec3::new(sx, sy, 1)).unwrap();
    for (i, row) in rows.iter().enumerate() {
        let y = sy - 1 - i as i32;
        for (x, c) in row.chars().enumerate() {
            let block = match c {
                '#' => Block::Solid,
                '~' => Block::Water,
                '.' => Block::Air,
                other => panic!("unknown side-view character {other:?}"),
            };
            world.set(IVec3::new(x as i32, y, 0), block).unwrap();
        }
    }
    world
}

fn swimmer() -> Agent {
    Agent::default().with_water(WaterMode::Swim)
}

fn route(agent: Agent, world: &ChunkedWorld, start: IVec3, goal: IVec3) -> voxnav::SearchResult {
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    pathfinder
        .find_path(world, start, goal, &SearchOptions::default())
        .unwrap()
}

/// A pond two deep between two banks whose tops are one block above the water's surface.
const POND: [&str; 6] = [
    "...........", // y = 5: head room for a mob three tall
    "...........", // y = 4
    "...........", // y = 3: feet on the banks
    "##~~~~~~~##", // y = 2: the surface, swimming positions at x = 2 ..= 8
    "#~~~~~~~~~#", // y = 1
    "###########", // y = 0
];

#[test]
fn a_swimmer_crosses_a_pond_and_climbs_out_on_the_far_bank() {
    let world = side_view(&POND);
    let (start, goal) = (IVec3::new(0, 3, 0), IVec3::new(10, 3, 0));
    let found = route(swimmer(), &world, start, goal);
    assert_eq!(found.status, SearchStatus::Found);
    let mut expected = vec![start, IVec3::new(1, 3, 0)];
    expected.extend((2..=8).map(|x| IVec3::new(x, 2, 0)));
    expected.extend([IVec3::new(9, 3, 0), goal]);
    assert_eq!(found.path, expected);
    // Walk 10; drop into the water 10 + 2 + water 10 + swim 10; six strokes of 30; climb out
    // 10 + 10; walk 10.
    assert_eq!(found.cost, Some(10 + 32 + 6 * 30 + 20 + 10));
    let check = check_path(&world, &swimmer(), &MoveCosts::default(), &found.path);
    assert_eq!(check.cost, found.cost);
    // The climb out is the step-up rule, from a position with no floor.
    let out = move_in_direction(
        &world,
        &swimmer(),
        &MoveCosts::default(),
        IVec3::new(8, 2, 0),
        EAST,
    )
    .unwrap();
    assert_eq!(
        (out.feet, out.kind),
        (IVec3::new(9, 3, 0), MoveKind::StepUp(1))
    );

    // The compiled graph holds the swimming positions and gives the same route.
    let graph = NavGraph::compile(&world, &swimmer()).unwrap();
    let mut search = GraphSearch::new(MoveCosts::default()).unwrap();
    let compiled = search
        .find_path(&graph, start, goal, &SearchOptions::default())
        .unwrap();
    assert_eq!((compiled.path, compiled.cost), (found.path, found.cost));
}

#[test]
fn a_wader_may_not_cross_the_pond_nor_start_afloat() {
    let world = side_view(&POND);
    let found = route(
        Agent::default(),
        &world,
        IVec3::new(0, 3, 0),
        IVec3::new(10, 3, 0),
    );
    assert_eq!(found.status, SearchStatus::Unreachable);
    // A swimming position is a valid start for a swimmer only.
    let afloat = IVec3::new(5, 2, 0);
    assert!(swimmer().is_valid_position(&world, afloat));
    assert_eq!(
        Agent::default().check_position(&world, afloat),
        Err(InvalidFeet::NoFloor {
            floor: IVec3::new(5, 1, 0)
        })
    );
    // No diving: the bottom of the pond is a valid feet position (a start placed there may
    // leave) but no move enters it.
    let mut moves = Vec::new();
    neighbours(
        &world,
        &swimmer(),
        &MoveCosts::default(),
        afloat,
        &mut moves,
    );
    assert!(moves.iter().all(|m| m.feet.y == 2), "{moves:?}");
}

/// A cliff whose top is 10 blocks above a pool two deep (x = 1, 2) and 10 blocks above dry
/// ground (x = 3).
const CLIFF: [&str; 14] = [
    "....", // y = 13
    "....", // y = 12: feet on the cliff
    "#...", // y = 11
    "#...", "#...", "#...", "#...", "#...", "#...", "#...", "#...", // y = 10 ..= 3
    "#~~.", // y = 2: the surface
    "#~~#", // y = 1: (3, 2) is dry ground, 10 below the cliff's top
    "####", // y = 0
];

#[test]
fn a_drop_of_ten_into_deep_water_is_a_swimmers_move_and_not_a_waders() {
    let world = side_view(&CLIFF);
    let top = IVec3::new(0, 12, 0);
    let costs = MoveCosts::default();
    let fall = move_in_direction(&world, &swimmer(), &costs, top, EAST).unwrap();
    // 10 + 10 * 2 + water 10 + swim 10.
    assert_eq!(
        (fall.feet, fall.kind, fall.cost),
        (IVec3::new(1, 2, 0), MoveKind::Drop(10), 50)
    );
    assert_eq!(
        move_in_direction(&world, &Agent::default(), &costs, top, EAST),
        None
    );
    assert_eq!(
        move_in_direction(
            &world,
            &Agent::default().with_water(WaterMode::Avoid),
            &costs,
            top,
            EAST
        ),
        None
    );
    // Water breaks the fall, dry ground does not: from the pool a swimmer reaches the dry
    // ground, but from the cliff's top only through the water.
    let found = route(swimmer(), &world, top, IVec3::new(3, 2, 0));
    assert_eq!(found.status, SearchStatus::Found);
    assert_eq!(
        found.path,
        vec![
            top,
            IVec3::new(1, 2, 0),
            IVec3::new(2, 2, 0),
            IVec3::new(3, 2, 0)
        ]
    );
    let dry = side_view(&[
        "..", "..", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "#.", "##",
    ]);
    assert_eq!(
        move_in_direction(&dry, &swimmer(), &costs, IVec3::new(0, 11, 0), EAST),
        None
    );
}

#[test]
fn a_fall_into_water_deeper_than_the_limit_is_no_move() {
    let limit = MAX_WATER_DROP as i32;
    let mut world = ChunkedWorld::with_size(IVec3::new(2, limit + 6, 1)).unwrap();
    // Cliff feet at limit + 3, surface at 2: a fall of limit + 1.
    world
        .fill(IVec3::ZERO, IVec3::new(0, limit + 2, 0), Block::Solid)
        .unwrap();
    world.set(IVec3::new(1, 0, 0), Block::Solid).unwrap();
    world
        .fill(IVec3::new(1, 1, 0), IVec3::new(1, 2, 0), Block::Water)
        .unwrap();
    let costs = MoveCosts::default();
    assert_eq!(
        move_in_direction(
            &world,
            &swimmer(),
            &costs,
            IVec3::new(0, limit + 3, 0),
            EAST
        ),
        None
    );
    // One block lower, the fall is exactly the limit.
    world.set(IVec3::new(0, limit + 2, 0), Block::Air).unwrap();
    let fall = move_in_direction(
        &world,
        &swimmer(),
        &costs,
        IVec3::new(0, limit + 2, 0),
        EAST,
    );
    assert_eq!(fall.map(|m| m.kind), Some(MoveKind::Drop(MAX_WATER_DROP)));
}

/// Shallow water one block deep across a path.
const FORD: [&str; 3] = [
    ".....", // y = 2
    "..~..", // y = 1: feet
    "#####", // y = 0
];

#[test]
fn avoiding_water_refuses_shallow_water_too() {
    let world = side_view(&FORD);
    let (start, goal) = (IVec3::new(0, 1, 0), IVec3::new(4, 1, 0));
    let wade = route(Agent::default(), &world, start, goal);
    // Walk 10, wade 10 + water 10, walk 10, walk 10: no swimming term for a wade.
    assert_eq!(wade.cost, Some(50));
    let swim = route(swimmer(), &world, start, goal);
    assert_eq!((swim.path, swim.cost), (wade.path, wade.cost));
    let avoid = route(
        Agent::default().with_water(WaterMode::Avoid),
        &world,
        start,
        goal,
    );
    assert_eq!(avoid.status, SearchStatus::Unreachable);
}

#[test]
fn the_default_agent_wades() {
    assert_eq!(Agent::default().water, WaterMode::Wade);
    assert!(!Agent::default().swims_at_surface());
    assert_eq!(MoveCosts::default().swim, 10);
}

#[test]
fn a_zombie_swims_the_pond_and_an_iron_golem_which_sinks_may_not() {
    let world = side_view(&POND);
    let (start, goal) = (IVec3::new(0, 3, 0), IVec3::new(10, 3, 0));
    let zombie = route(Agent::mob("zombie").unwrap(), &world, start, goal);
    assert_eq!(zombie.status, SearchStatus::Found);
    // The side view is one block deep: the golem's body is taken one block wide here (its
    // width of 2 is routed in tests/widths.rs).
    let golem = Agent::mob("iron_golem").unwrap().with_width(1);
    let golem = route(golem, &world, start, goal);
    assert_eq!(golem.status, SearchStatus::Unreachable);
}
