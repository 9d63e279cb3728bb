//! The walking rules for real Minecraft blocks (rules 5-7 of `voxnav::moves`), one test per
//! rule, each on a world small enough to check by eye.
//!
//! Most worlds here are one cell deep (z = 0) and drawn as a side view: the first row is the
//! top layer, the last row is y = 0, characters are x. `8` is a bottom slab (its top at 8/16),
//! `e` snow of 8 layers (14/16), `4` snow of 3 layers (4/16), `F` a fence, `D` a door, `W` a
//! cobweb, `X` a barrier, `!` a hazard, `~` water, `H` a ladder.

use std::fmt::Write as _;

use voxnav::moves::{floor_rise, rise_allowed};

use voxnav::engine::{Move, MoveKind, Pathfinder, move_in_direction, neighbours};
use voxnav::world::{FENCE_TOP, FULL_BLOCK, TerrainFlags, parse_text_world};
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, SearchStatus, VoxelWorld,
    check_path,
};

const EAST: IVec3 = IVec3::new(1, 0, 0);
/// The feet cell most side views start from: x = 0, standing on the bottom row.
const START: IVec3 = IVec3::new(0, 1, 0);
/// One cell east of [`START`] and one up.
const UP_EAST: IVec3 = IVec3::new(1, 2, 0);
const SOUTH_EAST: IVec3 = IVec3::new(1, 0, 1);

/// A world one cell deep from a side view, top row first.
fn side(rows: &[&str]) -> ChunkedWorld {
    layers(&rows.iter().rev().map(|row| vec![*row]).collect::<Vec<_>>())
}

/// A world from its layers, bottom first; each layer lists its rows (z), each row its cells (x).
fn layers(layers: &[Vec<&str>]) -> ChunkedWorld {
    let (sx, sz) = (layers[0][0].len(), layers[0].len());
    let mut text = format!("voxnav-world 1\nsize {sx} {} {sz}\n", layers.len());
    for (y, layer) in layers.iter().enumerate() {
        writeln!(text, "layer {y}\n{}", layer.join("\n")).unwrap();
    }
    parse_text_world(&text).unwrap()
}

/// Costs that make jumps visible: every move that needs a jump pays 5 more.
fn jump_costs() -> MoveCosts {
    MoveCosts::default().with_jump(5)
}

fn step(world: &ChunkedWorld, agent: Agent, feet: IVec3, direction: IVec3) -> Option<Move> {
    assert!(
        voxnav::world::is_valid_feet(world, feet, agent.height),
        "{feet} is no valid start"
    );
    move_in_direction(world, &agent, &jump_costs(), feet, direction)
}

/// A step up by one cell from [`START`] to [`UP_EAST`], at `cost`.
fn step_up_east(cost: u32) -> (IVec3, MoveKind, u32) {
    (UP_EAST, MoveKind::StepUp(1), cost)
}

/// The floor rise from [`START`] to [`UP_EAST`] in sixteenths, and whether the default agent
/// needs a jump for it (`None`: it cannot make it).
fn rise_up_east(world: &ChunkedWorld) -> (i64, Option<bool>) {
    let rise = floor_rise(world, START, UP_EAST);
    (rise, rise_allowed(&Agent::default(), rise))
}

/// The move east from `feet` for the default agent (see [`east_as`]).
fn east(world: &ChunkedWorld, feet: IVec3) -> Option<(IVec3, MoveKind, u32)> {
    east_as(world, Agent::default(), feet)
}

/// The move east from `feet`, checked against the bitmask generator as well: both statements
/// of the rules must give the same answer.
fn east_as(world: &ChunkedWorld, agent: Agent, feet: IVec3) -> Option<(IVec3, MoveKind, u32)> {
    assert!(
        voxnav::world::is_valid_feet(world, feet, agent.height),
        "{feet} is no valid start"
    );
    let one = step(world, agent, feet, EAST);
    let mut all = Vec::new();
    neighbours(world, &agent, &jump_costs(), feet, &mut all);
    let from_generator = all.into_iter().find(|m| m.direction == EAST);
    assert_eq!(
        one, from_generator,
        "the two statements of the rules disagree"
    );
    one.map(|m| (m.feet, m.kind, m.cost))
}

fn route(world: &ChunkedWorld, costs: MoveCosts, start: IVec3, goal: IVec3) -> Option<u64> {
    let mut pathfinder = Pathfinder::new(Agent::default(), costs).unwrap();
    let result = pathfinder
        .find_path(world, start, goal, &SearchOptions::default())
        .unwrap();
    if let Some(cost) = result.cost {
        assert_eq!(result.status, SearchStatus::Found);
        assert_eq!(
            check_path(world, &Agent::default(), &costs, &result.path).cost,
            Some(cost)
        );
    }
    result.cost
}

#[test]
fn floor_top_is_a_full_block_by_default_and_the_collision_top_of_partial_blocks() {
    let world = side(&["8eF#."]);
    let tops: Vec<u8> = (0..5)
        .map(|x| world.floor_top(IVec3::new(x, 0, 0)))
        .collect();
    assert_eq!(tops, [8, 14, FENCE_TOP, FULL_BLOCK, FULL_BLOCK]);
    assert!(world.is_standable(IVec3::new(0, 0, 0)) && !world.is_passable(IVec3::new(0, 0, 0)));
    assert!(!world.is_standable(IVec3::new(2, 0, 0)) && !world.is_passable(IVec3::new(2, 0, 0)));
}

// Rule 6: the rise of the floor decides.

#[test]
fn rule6_walk_up_onto_a_bottom_slab_one_cell_higher_needs_no_jump() {
    // Rise 16 + 8 - 16 = 8: walked. Its kind is the feet cells' (one up), its cost a step up
    // without the jump term: 10 + 10.
    let world = side(&["..", "..", ".8", "##"]);
    assert_eq!(east(&world, START), Some(step_up_east(20)));
    assert_eq!(rise_up_east(&world), (8, Some(false)));
}

#[test]
fn rule6_a_full_block_one_cell_higher_is_a_jump() {
    // Rise 16: a jump, which pays the jump term: 10 + 10 + 5.
    let world = side(&["..", "..", ".#", "##"]);
    assert_eq!(east(&world, START), Some(step_up_east(25)));
    assert_eq!(rise_up_east(&world), (16, Some(true)));
}

#[test]
fn rule6_slab_onto_a_slab_one_cell_higher_is_a_jump() {
    // Rise 16 + 8 - 8 = 16.
    let world = side(&["..", "..", ".8", "8#"]);
    assert_eq!(east(&world, START), Some(step_up_east(25)));
}

#[test]
fn rule6_slab_onto_a_full_block_one_cell_higher_is_too_high_to_jump() {
    // Rise 16 + 16 - 8 = 24 sixteenths, 1.5 blocks: more than the 20 of a jump.
    let world = side(&["..", "..", ".#", "8#"]);
    assert_eq!(east(&world, START), None);
    // An agent that climbs two blocks reaches 36.
    assert_eq!(
        east_as(&world, Agent::default().with_max_step_up(2), START),
        Some(step_up_east(25))
    );
}

#[test]
fn rule6_thick_snow_onto_a_full_block_one_cell_higher_fits_a_jump_and_thin_snow_does_not() {
    // Snow of 3 layers (top 4): rise 28. Snow with top 12: rise 20, the most a jump clears.
    let low = side(&["..", "..", ".#", "4#"]);
    assert_eq!(east(&low, START), None);
    let high = side(&["..", "..", ".#", "c#"]);
    assert_eq!(east(&high, START), Some(step_up_east(25)));
}

#[test]
fn rule6_slab_onto_a_full_block_in_the_same_row_is_a_walk() {
    // Rise 16 - 8 = 8: a level walk at walking cost.
    let world = side(&["..", "..", "8#"]);
    assert_eq!(
        east(&world, START),
        Some((IVec3::new(1, 1, 0), MoveKind::Walk, 10))
    );
}

#[test]
fn rule6_deep_snow_is_a_floor_at_its_height_and_a_high_level_rise_is_a_jump() {
    // Snow of 3 layers (top 4) onto a full block in the same row: rise 12 > 9, a jump.
    let world = side(&["..", "..", "4#"]);
    assert_eq!(
        east(&world, START),
        Some((IVec3::new(1, 1, 0), MoveKind::Walk, 15))
    );
    // An agent that cannot jump at all (max_step_up 0) cannot make it.
    assert_eq!(
        east_as(&world, Agent::default().with_max_step_up(0), START),
        None
    );
    // Snow of 8 layers (top 14) onto a full block: rise 2, a walk.
    let world = side(&["..", "..", "e#"]);
    assert_eq!(
        east(&world, START),
        Some((IVec3::new(1, 1, 0), MoveKind::Walk, 10))
    );
}

#[test]
fn rule6_a_fall_deeper_than_max_drop_blocks_is_no_move() {
    // From a full block down three cells onto a slab: 48 + 16 - 8 = 56 > 48.
    let onto_slab = side(&["..", "..", "#.", "#.", "#.", "#8"]);
    assert_eq!(east(&onto_slab, IVec3::new(0, 4, 0)), None);
    // Onto a full block three cells down: 48, a fall without damage.
    let onto_block = side(&["..", "..", "#.", "#.", "#.", "##"]);
    assert_eq!(
        east(&onto_block, IVec3::new(0, 4, 0)),
        Some((IVec3::new(1, 1, 0), MoveKind::Drop(3), 16))
    );
    // From a slab three cells down onto a full block: 48 + 8 - 16 = 40.
    let from_slab = side(&["..", "..", "8.", "#.", "#.", "##"]);
    assert_eq!(
        east(&from_slab, IVec3::new(0, 4, 0)),
        Some((IVec3::new(1, 1, 0), MoveKind::Drop(3), 16))
    );
}

#[test]
fn rule6_fences_are_neither_stood_on_nor_stepped_over() {
    // A fence at the feet: no step up onto or over it.
    let world = side(&["...", "...", ".F.", "###"]);
    assert_eq!(east(&world, START), None);
    assert_eq!(
        route(&world, MoveCosts::default(), START, IVec3::new(2, 1, 0)),
        None
    );
    // A fence as the floor: no walk onto it, no fall through it.
    let world = side(&["...", "...", "#F#"]);
    assert_eq!(east(&world, START), None);
    // Even an agent that climbs two blocks cannot stand on a fence.
    assert_eq!(
        east_as(&world, Agent::default().with_max_step_up(2), START),
        None
    );
}

#[test]
fn rule6_a_fence_blocks_the_diagonal_past_the_cell_above_it() {
    // Floor 2 x 2; the x-side column's floor cell is a fence, whose top pokes half a block
    // into the cell beside the agent's feet.
    let fenced = layers(&[vec!["#F", "##"], vec!["..", ".."], vec!["..", ".."]]);
    let solid = layers(&[vec!["##", "##"], vec!["..", ".."], vec!["..", ".."]]);
    let feet = START;
    assert_eq!(step(&fenced, Agent::default(), feet, SOUTH_EAST), None);
    let m = step(&solid, Agent::default(), feet, SOUTH_EAST).unwrap();
    assert_eq!((m.feet, m.cost), (IVec3::new(1, 1, 1), 14));
    // The bitmask generator agrees (it sees the fence and takes the cell-by-cell rules).
    let mut moves = Vec::new();
    neighbours(
        &fenced,
        &Agent::default(),
        &MoveCosts::default(),
        feet,
        &mut moves,
    );
    assert_eq!(
        moves.iter().map(|m| m.feet).collect::<Vec<_>>(),
        [IVec3::new(0, 1, 1)]
    );
}

#[test]
fn rule6_slab_stairs_lead_up_where_a_jump_from_a_slab_cannot() {
    // Two rows: row 0 has a slab, then a block two high; row 1 has a block, then the same
    // tower. From the slab the tower is 1.5 blocks up: the route steps onto the block beside
    // it first (rise 8, a walk: 10), jumps onto the tower from there (rise 16: 10 + 10 + 5)
    // and walks back to row 0 (10). No diagonal helps: the tower blocks both corners.
    let world = layers(&[
        vec!["8##", "###"],
        vec![".#.", ".#."],
        vec!["...", "..."],
        vec!["...", "..."],
    ]);
    let (start, top) = (START, UP_EAST);
    assert_eq!(step(&world, Agent::default(), start, EAST), None);
    assert_eq!(route(&world, jump_costs(), start, top), Some(10 + 25 + 10));
}

// Rule 7: water.

#[test]
fn rule7_water_one_block_deep_is_waded_with_the_head_in_the_air() {
    let world = side(&["...", "...", ".~.", "###"]);
    assert_eq!(world.terrain(IVec3::new(1, 1, 0)), TerrainFlags::IN_WATER);
    // Walk in (10 + 10 water), walk out (10).
    assert_eq!(
        route(&world, MoveCosts::default(), START, IVec3::new(2, 1, 0)),
        Some(30)
    );
}

#[test]
fn rule7_water_two_blocks_deep_is_never_entered() {
    // A pool two deep between two banks; its bottom is a valid feet position, but no move
    // ends there, so the far bank cannot be reached.
    let deep = side(&[".....", ".....", ".~~~.", "#~~~#", "#####"]);
    let (bank, far_bank) = (IVec3::new(0, 2, 0), IVec3::new(4, 2, 0));
    assert!(voxnav::world::is_valid_feet(&deep, IVec3::new(2, 1, 0), 2));
    assert_eq!(east(&deep, bank), None);
    assert_eq!(route(&deep, MoveCosts::default(), bank, far_bank), None);
    // The same pool one deep is waded: drop in (10 + 2 + 10), two wading steps (2 * 20),
    // step up out (10 + 10).
    let shallow = side(&[".....", ".....", ".....", "#~~~#", "#####"]);
    assert_eq!(
        route(&shallow, MoveCosts::default(), bank, far_bank),
        Some(22 + 40 + 20)
    );
}

// Rule 5: terrain terms of the other real blocks.

#[test]
fn rule5_a_door_is_passable_at_the_door_cost() {
    // A wall with a two-high door in it.
    let world = side(&["..#..", "..D..", "..D..", "#####"]);
    assert_eq!(world.terrain(IVec3::new(2, 1, 0)), TerrainFlags::IN_DOOR);
    let (start, goal) = (START, IVec3::new(4, 1, 0));
    assert_eq!(route(&world, MoveCosts::default(), start, goal), Some(50));
    assert_eq!(
        route(&world, MoveCosts::default().with_door(0), start, goal),
        Some(40)
    );
    // A door is not a floor.
    assert!(!world.is_standable(IVec3::new(2, 1, 0)));
}

#[test]
fn rule5_a_barrier_is_a_wall() {
    let world = side(&["..X..", "..X..", "#####"]);
    assert_eq!(
        route(&world, MoveCosts::default(), START, IVec3::new(4, 1, 0)),
        None
    );
    // Barriers are harmless: no danger next to them.
    assert!(world.terrain(IVec3::new(1, 1, 0)).is_plain());
}

#[test]
fn rule5_a_hazard_is_never_entered_and_makes_its_neighbours_dangerous() {
    // Two rows: row 0 has a hazard in its floor, row 1 is plain.
    let world = layers(&[
        vec!["##!##", "#####"],
        vec![".....", "....."],
        vec![".....", "....."],
    ]);
    assert!(!world.is_standable(IVec3::new(2, 0, 0)));
    for beside in [IVec3::new(1, 1, 0), IVec3::new(1, 1, 1)] {
        let terrain = world.terrain(beside);
        assert!(terrain.contains(TerrainFlags::NEAR_DANGER), "{beside}");
    }
    // Nothing stands on the hazard, and every feet cell with x from 1 to 3 lies within one
    // block of it: the route pays the danger three times, 14 + 40, 10 + 40, 10 + 40, 14.
    let (start, goal) = (START, IVec3::new(4, 1, 0));
    assert_eq!(route(&world, MoveCosts::default(), start, goal), Some(168));
    assert_eq!(
        route(&world, MoveCosts::default().with_danger(0), start, goal),
        Some(48)
    );
}

#[test]
fn rule5_a_cobweb_is_passable_and_slow_at_the_feet_or_the_head() {
    let feet_web = side(&["...", ".W.", "###"]);
    let head_web = side(&[".W.", "...", "###"]);
    for world in [&feet_web, &head_web] {
        assert_eq!(world.terrain(IVec3::new(1, 1, 0)), TerrainFlags::IN_COBWEB);
        assert_eq!(
            route(world, MoveCosts::default(), START, IVec3::new(2, 1, 0)),
            Some(50)
        );
    }
    assert_eq!(
        route(
            &feet_web,
            MoveCosts::default().with_cobweb(0),
            START,
            IVec3::new(2, 1, 0)
        ),
        Some(20)
    );
}

#[test]
fn rule4_a_ladder_up_a_wall_beside_a_slab_still_climbs() {
    // A ladder column at x = 1 against a wall at x = 2; the agent starts on a slab at x = 0.
    let world = side(&["...", "...", "..#", ".H#", ".H#", "8##"]);
    let (start, top) = (START, IVec3::new(2, 4, 0));
    // Onto the ladder (rise 8, a walk: 10), two rungs (2 * 20), off the top onto the wall
    // (rise 16 from the ladder's top rung: 10 + 10 + 5).
    assert_eq!(route(&world, jump_costs(), start, top), Some(10 + 40 + 25));
}

#[test]
fn partial_floors_leave_whole_block_worlds_alone() {
    // The same step up with and without a slab somewhere else in the window: the answer
    // for the whole-block part does not change.
    // The slab lies in the south-east column, inside the window the generator reads.
    let air = vec!["...", "..."];
    let plain = layers(&[
        vec!["###", "###"],
        vec![".#.", "..."],
        air.clone(),
        air.clone(),
    ]);
    let with_slab = layers(&[vec!["###", "#8#"], vec![".#.", "..."], air.clone(), air]);
    for world in [&plain, &with_slab] {
        assert_eq!(east(world, START), Some(step_up_east(25)));
    }
    world_block_round_trip();
}

/// Floors keep their tops through writes and reads.
fn world_block_round_trip() {
    let mut world = ChunkedWorld::new();
    for top in 1..=15u8 {
        let p = IVec3::new(i32::from(top), 0, 0);
        world.set(p, Block::Floor(top)).unwrap();
        assert_eq!(world.floor_top(p), top);
        assert_eq!(world.get(p), Some(Block::Floor(top)));
    }
    world.set(IVec3::new(3, 0, 0), Block::Solid).unwrap();
    assert_eq!(world.floor_top(IVec3::new(3, 0, 0)), FULL_BLOCK);
}

#[test]
fn chunks_written_whole_from_a_palette_keep_floor_heights() {
    // The loader's way in: a whole chunk from a palette, y = 0 solid, a slab and a fence on it.
    let mut world = ChunkedWorld::new();
    let palette = [Block::Air, Block::Solid, Block::Floor(8), Block::Fence];
    let mut indices = [0u16; 4096];
    indices[..256].fill(1);
    indices[256 + 1] = 2; // (1, 1, 0)
    indices[256 + 3] = 3; // (3, 1, 0)
    world
        .set_chunk_palette(IVec3::ZERO, &palette, &indices)
        .unwrap();
    assert_eq!(world.floor_top(IVec3::new(1, 1, 0)), 8);
    assert_eq!(world.floor_top(IVec3::new(3, 1, 0)), FENCE_TOP);
    assert_eq!(world.column(1, 0, 0, 4).partial, 0b10);
    assert_eq!(world.column(3, 0, 0, 4).partial, 0b10);
    assert_eq!(world.column(0, 0, 0, 4).partial, 0);
    assert_eq!(east(&world, START), Some(step_up_east(20)));
    // Off the slab towards the fence: the fence is neither floor nor step.
    assert_eq!(
        east(&world, UP_EAST).map(|m| m.0),
        Some(IVec3::new(2, 1, 0))
    );
    assert_eq!(east(&world, IVec3::new(2, 1, 0)), None);
}
