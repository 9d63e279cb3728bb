//! One test per walking rule of the `voxnav::moves` docs, each on a small ASCII-built world.
//! Layers are listed bottom-up; in each layer, rows are z and characters are x.

mod support;

use support::worlds::world_from_layers;
use voxnav::engine::{DIRECTIONS, Move, MoveKind, move_in_direction, neighbours};
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts};

const EAST: IVec3 = IVec3::new(1, 0, 0);
const SOUTH_EAST: IVec3 = IVec3::new(1, 0, 1);

fn step(world: &ChunkedWorld, agent: Agent, feet: IVec3, direction: IVec3) -> Option<Move> {
    move_in_direction(world, &agent, &MoveCosts::default(), feet, direction)
}

#[test]
fn level_walk_keeps_the_height_and_costs_a_straight_step() {
    let world = world_from_layers(&[&["###"], &["..."], &["..."]]);
    let m = step(&world, Agent::default(), IVec3::new(0, 1, 0), EAST).unwrap();
    assert_eq!(
        (m.feet, m.kind, m.cost),
        (IVec3::new(1, 1, 0), MoveKind::Walk, 10)
    );
}

#[test]
fn step_up_climbs_one_block_onto_a_valid_feet_position() {
    let world = world_from_layers(&[&["###"], &[".##"], &["..."], &["..."]]);
    let m = step(&world, Agent::default(), IVec3::new(0, 1, 0), EAST).unwrap();
    assert_eq!(
        (m.feet, m.kind, m.cost),
        (IVec3::new(1, 2, 0), MoveKind::StepUp(1), 20)
    );
}

#[test]
fn step_up_is_blocked_by_a_low_ceiling_over_the_agents_own_head() {
    // The agent at x = 0 has a ceiling at y = 3: no room to jump.
    let world = world_from_layers(&[&["###"], &[".##"], &["..."], &["#.."]]);
    assert_eq!(
        step(&world, Agent::default(), IVec3::new(0, 1, 0), EAST),
        None
    );
}

#[test]
fn step_up_is_blocked_without_head_room_over_the_target() {
    let world = world_from_layers(&[&["###"], &[".##"], &["..."], &[".#."]]);
    assert_eq!(
        step(&world, Agent::default(), IVec3::new(0, 1, 0), EAST),
        None
    );
}

#[test]
fn step_up_higher_than_max_step_up_is_no_move() {
    let world = world_from_layers(&[&["##"], &[".#"], &[".#"], &[".."], &[".."], &[".."]]);
    let feet = IVec3::new(0, 1, 0);
    assert_eq!(step(&world, Agent::default(), feet, EAST), None);
    let m = step(&world, Agent::default().with_max_step_up(2), feet, EAST).unwrap();
    assert_eq!(
        (m.feet, m.kind, m.cost),
        (IVec3::new(1, 3, 0), MoveKind::StepUp(2), 30)
    );
}

/// A ledge at x = 0 with feet at `1 + depth`, and a floor at x = 1 with feet at 1.
fn cliff(depth: i32) -> ChunkedWorld {
    let mut world = ChunkedWorld::with_size(IVec3::new(2, depth + 3, 1)).unwrap();
    world
        .fill(IVec3::ZERO, IVec3::new(0, depth, 0), Block::Solid)
        .unwrap();
    world.set(IVec3::new(1, 0, 0), Block::Solid).unwrap();
    world
}

#[test]
fn drop_falls_to_the_highest_floor_up_to_max_drop() {
    for depth in 1..=3 {
        let world = cliff(depth);
        let m = step(&world, Agent::default(), IVec3::new(0, 1 + depth, 0), EAST).unwrap();
        assert_eq!(m.feet, IVec3::new(1, 1, 0));
        assert_eq!(m.kind, MoveKind::Drop(depth as u32));
        assert_eq!(m.cost, 10 + 2 * depth as u32);
    }
}

#[test]
fn drop_deeper_than_max_drop_is_no_move() {
    let world = cliff(4);
    let feet = IVec3::new(0, 5, 0);
    assert_eq!(step(&world, Agent::default(), feet, EAST), None);
    let m = step(&world, Agent::default().with_max_drop(4), feet, EAST).unwrap();
    assert_eq!(m.kind, MoveKind::Drop(4));
}

#[test]
fn drop_counts_the_blocks_fallen_to_the_first_floor() {
    // The ledge's feet are at y = 4; the column beside it has its floor at y = 1.
    let world = world_from_layers(&[&["##"], &["##"], &["#."], &["#."], &[".."], &[".."]]);
    let m = step(&world, Agent::default(), IVec3::new(0, 4, 0), EAST).unwrap();
    assert_eq!((m.feet, m.kind), (IVec3::new(1, 2, 0), MoveKind::Drop(2)));
}

#[test]
fn head_room_at_the_target_is_required_for_a_level_walk() {
    let world = world_from_layers(&[&["##"], &[".."], &[".#"], &[".."]]);
    assert_eq!(
        step(&world, Agent::default(), IVec3::new(0, 1, 0), EAST),
        None
    );
    // A one-tall agent fits under the overhang.
    let m = step(
        &world,
        Agent::default().with_height(1),
        IVec3::new(0, 1, 0),
        EAST,
    )
    .unwrap();
    assert_eq!(m.kind, MoveKind::Walk);
}

#[test]
fn diagonal_is_blocked_by_either_corner_at_any_body_height() {
    let open = world_from_layers(&[&["##", "##"], &["..", ".."], &["..", ".."]]);
    let m = step(&open, Agent::default(), IVec3::new(0, 1, 0), SOUTH_EAST).unwrap();
    assert_eq!((m.feet, m.cost), (IVec3::new(1, 1, 1), 14));

    for (layer1, layer2) in [
        ([".#", ".."], ["..", ".."]), // x-side corner at the feet
        (["..", "#."], ["..", ".."]), // z-side corner at the feet
        (["..", ".."], [".#", ".."]), // x-side corner at head height
        (["..", ".."], ["..", "#."]), // z-side corner at head height
    ] {
        let world = world_from_layers(&[&["##", "##"], &layer1, &layer2]);
        assert_eq!(
            step(&world, Agent::default(), IVec3::new(0, 1, 0), SOUTH_EAST),
            None,
            "{layer1:?} {layer2:?}"
        );
    }
}

#[test]
fn diagonal_step_up_needs_clear_corners_up_to_the_higher_head() {
    // Target (1, 2, 1) is one block up; the x-side corner is blocked at y = 3 only.
    let layers_blocked: [&[&str]; 5] = [
        &["##", "##"],
        &["..", ".#"],
        &["..", ".."],
        &[".#", ".."],
        &["..", ".."],
    ];
    let world = world_from_layers(&layers_blocked);
    assert_eq!(
        step(&world, Agent::default(), IVec3::new(0, 1, 0), SOUTH_EAST),
        None
    );
    let layers_clear: [&[&str]; 5] = [
        &["##", "##"],
        &["..", ".#"],
        &["..", ".."],
        &["..", ".."],
        &["..", ".."],
    ];
    let world = world_from_layers(&layers_clear);
    let m = step(&world, Agent::default(), IVec3::new(0, 1, 0), SOUTH_EAST).unwrap();
    assert_eq!(
        (m.feet, m.kind, m.cost),
        (IVec3::new(1, 2, 1), MoveKind::StepUp(1), 24)
    );
}

#[test]
fn diagonals_off_gives_only_the_four_straight_directions() {
    let world = world_from_layers(&[
        &["###", "###", "###"],
        &["...", "...", "..."],
        &["...", "...", "..."],
    ]);
    let mut moves = Vec::new();
    let centre = IVec3::new(1, 1, 1);
    neighbours(
        &world,
        &Agent::default(),
        &MoveCosts::default(),
        centre,
        &mut moves,
    );
    assert_eq!(moves.len(), 8);
    neighbours(
        &world,
        &Agent::default().with_diagonals(false),
        &MoveCosts::default(),
        centre,
        &mut moves,
    );
    assert_eq!(moves.len(), 4);
    assert!(
        moves
            .iter()
            .all(|m| m.direction.x == 0 || m.direction.z == 0)
    );
}

#[test]
fn no_move_is_ever_straight_up_or_down() {
    // A pit: the agent stands at the bottom of a 1x1 shaft. Nothing leads anywhere.
    let world = world_from_layers(&[
        &["###", "###", "###"],
        &["###", "#.#", "###"],
        &["###", "#.#", "###"],
        &["...", "...", "..."],
    ]);
    let mut moves = vec![];
    neighbours(
        &world,
        &Agent::default(),
        &MoveCosts::default(),
        IVec3::new(1, 1, 1),
        &mut moves,
    );
    assert!(moves.is_empty(), "{moves:?}");
    for direction in DIRECTIONS {
        assert!(direction.x != 0 || direction.z != 0);
        assert_eq!(direction.y, 0);
    }
}

#[test]
fn extra_cost_of_the_target_is_added() {
    struct Mud(ChunkedWorld);
    impl voxnav::VoxelWorld for Mud {
        fn is_passable(&self, p: IVec3) -> bool {
            self.0.is_passable(p)
        }
        fn is_standable(&self, p: IVec3) -> bool {
            self.0.is_standable(p)
        }
        fn extra_cost(&self, feet: IVec3) -> u32 {
            if feet.x == 1 { 7 } else { 0 }
        }
    }
    let world = Mud(world_from_layers(&[&["###"], &["..."], &["..."]]));
    let m = move_in_direction(
        &world,
        &Agent::default(),
        &MoveCosts::default(),
        IVec3::new(0, 1, 0),
        EAST,
    )
    .unwrap();
    assert_eq!(m.cost, 17);
}

#[test]
fn an_agent_that_does_not_open_doors_finds_them_shut() {
    // A wall across the world at x = 2 with a wooden door in it.
    let world = world_from_layers(&[&["#####"], &["..D.."], &["..D.."], &["....."]]);
    let costs = MoveCosts::default();
    let feet = IVec3::new(1, 1, 0);
    let opener = Agent::default();
    let m = move_in_direction(&world, &opener, &costs, feet, EAST).unwrap();
    // A step and the door: 10 + 10.
    assert_eq!((m.feet, m.cost), (IVec3::new(2, 1, 0), 20));
    let shut = Agent::default().with_opens_doors(false);
    assert_eq!(move_in_direction(&world, &shut, &costs, feet, EAST), None);
    let mut moves = Vec::new();
    neighbours(&world, &shut, &costs, feet, &mut moves);
    assert!(moves.iter().all(|m| m.feet.x < 2), "{moves:?}");
}
