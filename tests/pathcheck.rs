//! Path checks: replaying a route against a changed world finds the first broken step.

use glam::IVec3;
use voxnav::engine::{Pathfinder, move_between};
use voxnav::world::parse_text_world;
use voxnav::{Agent, Block, ChunkedWorld, MoveCosts, SearchOptions, check_path};

/// A 12x6x5 field with a solid floor.
fn field() -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(12, 6, 5)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(11, 0, 4), Block::Solid)
        .unwrap();
    world
}

fn route(world: &ChunkedWorld, start: IVec3, goal: IVec3) -> (Vec<IVec3>, u64) {
    let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap();
    let result = pathfinder
        .find_path(world, start, goal, &SearchOptions::default())
        .unwrap();
    (result.path, result.cost.unwrap())
}

#[test]
fn a_fresh_route_is_legal_and_costs_what_the_search_said() {
    let mut world = field();
    world
        .fill(IVec3::new(5, 1, 0), IVec3::new(5, 1, 3), Block::Solid)
        .unwrap();
    let (path, cost) = route(&world, IVec3::new(0, 1, 2), IVec3::new(11, 1, 0));
    let check = check_path(&world, &Agent::default(), &MoveCosts::default(), &path);
    assert!(check.is_legal());
    assert!(check.rest_legal);
    assert_eq!(check.cost, Some(cost));
}

#[test]
fn a_block_in_the_way_breaks_the_step_into_it_and_the_rest_is_not_legal() {
    let mut world = field();
    let path: Vec<IVec3> = (0..12).map(|x| IVec3::new(x, 1, 2)).collect();
    world.set(IVec3::new(7, 2, 2), Block::Solid).unwrap();
    let check = check_path(&world, &Agent::default(), &MoveCosts::default(), &path);
    assert_eq!(check.first_broken, Some(7));
    assert!(
        !check.rest_legal,
        "feet (7, 1, 2) have no head room any more"
    );
    assert_eq!(check.cost, None);
}

#[test]
fn a_dug_floor_breaks_the_walk_and_a_blocked_corner_breaks_only_the_diagonal() {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let path: Vec<IVec3> = (0..12).map(|x| IVec3::new(x, 1, 2)).collect();
    let mut dug = field();
    dug.set(IVec3::new(4, 0, 2), Block::Air).unwrap();
    let check = check_path(&dug, &agent, &costs, &path);
    assert_eq!(
        check.first_broken,
        Some(4),
        "the walk onto x = 4 became a drop"
    );
    assert!(!check.rest_legal);

    let diagonal = vec![
        IVec3::new(0, 1, 0),
        IVec3::new(1, 1, 1),
        IVec3::new(2, 1, 2),
        IVec3::new(3, 1, 2),
    ];
    let mut world = field();
    assert!(check_path(&world, &agent, &costs, &diagonal).is_legal());
    world.set(IVec3::new(2, 1, 1), Block::Solid).unwrap();
    let check = check_path(&world, &agent, &costs, &diagonal);
    assert_eq!(
        check.first_broken,
        Some(2),
        "the corner at (2, 1, 1) is blocked"
    );
    assert!(check.rest_legal, "(2, 1, 2) -> (3, 1, 2) still works");
}

#[test]
fn an_invalid_start_is_broken_at_zero_and_terrain_changes_the_cost() {
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let path: Vec<IVec3> = (0..4).map(|x| IVec3::new(x, 1, 2)).collect();
    let mut world = field();
    world.set(IVec3::new(0, 0, 2), Block::Air).unwrap();
    let check = check_path(&world, &agent, &costs, &path);
    assert_eq!(check.first_broken, Some(0));
    world.set(IVec3::new(0, 0, 2), Block::Solid).unwrap();
    world.set(IVec3::new(2, 1, 2), Block::Water).unwrap();
    let check = check_path(&world, &agent, &costs, &path);
    assert_eq!(check.cost, Some(30 + u64::from(costs.water)));
    assert!(check_path(&world, &agent, &costs, &[]).is_legal());
}

#[test]
fn move_between_knows_ladders_and_rejects_jumps() {
    let world = parse_text_world(
        "voxnav-world 1\nsize 2 5 1\nlayer 0\n##\nlayer 1\nH.\nlayer 2\nH.\n\
         layer 3\n..\nlayer 4\n..\n",
    )
    .unwrap();
    let costs = MoveCosts::default();
    let cost = |from: [i32; 3], to: [i32; 3]| {
        let (from, to) = (IVec3::from_array(from), IVec3::from_array(to));
        move_between(&world, &Agent::default(), &costs, from, to).map(|m| m.cost)
    };
    // Up the ladder; not straight up without one, nor a jump of two cells.
    assert_eq!(cost([0, 1, 0], [0, 2, 0]), Some(costs.ascend + costs.climb));
    assert_eq!(cost([1, 1, 0], [1, 2, 0]), None);
    assert_eq!(cost([1, 1, 0], [0, 3, 0]), None);
    assert_eq!(cost([0, 1, 0], [0, 3, 0]), None);
}

#[test]
fn a_swimming_route_is_legal_for_a_swimmer_and_breaks_where_the_lake_is_drained() {
    use voxnav::moves::agent::WaterMode;
    // A lake two deep across the whole field at 4 <= x <= 7, its surface at y = 1 (feet on
    // the banks at y = 1 too: the lake fills a trench in the floor).
    let mut world = ChunkedWorld::with_size(IVec3::new(12, 6, 5)).unwrap();
    world
        .fill(IVec3::new(0, 0, 0), IVec3::new(11, 0, 4), Block::Solid)
        .unwrap();
    world
        .fill(IVec3::new(4, 0, 0), IVec3::new(7, 0, 4), Block::Water)
        .unwrap();
    world
        .fill(IVec3::new(4, 1, 0), IVec3::new(7, 1, 4), Block::Water)
        .unwrap();
    let swimmer = Agent::default().with_water(WaterMode::Swim);
    let costs = MoveCosts::default();
    let path: Vec<IVec3> = (0..12).map(|x| IVec3::new(x, 1, 2)).collect();
    // Four strokes at 10 + water 10 + swim 10, seven steps on land at 10.
    assert_eq!(
        check_path(&world, &swimmer, &costs, &path).cost,
        Some(4 * 30 + 7 * 10)
    );
    let wader = check_path(&world, &Agent::default(), &costs, &path);
    assert_eq!(wader.first_broken, Some(4));
    assert!(!wader.rest_legal);
    // Drained to air below the surface: (5, 1, 2) is water over air, still a surface; drained
    // down to the floor of the trench it is air with nothing under it, and the route breaks
    // at the stroke into it.
    world.set(IVec3::new(5, 0, 2), Block::Air).unwrap();
    assert!(check_path(&world, &swimmer, &costs, &path).is_legal());
    world.set(IVec3::new(5, 1, 2), Block::Air).unwrap();
    let check = check_path(&world, &swimmer, &costs, &path);
    assert_eq!(check.first_broken, Some(5));
    assert!(!check.rest_legal);
}
