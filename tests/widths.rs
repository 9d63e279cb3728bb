//! Agents wider than one block (issue 22 items 2 and 6): side views a person can check by
//! eye, then every engine against exhaustive Dijkstra over the oracle's restatement of the
//! box rules (tests/support/oracle.rs) for widths 1 to 3 and heights 1 to 4.

mod support;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use support::oracle::{all_feet, assert_generator_matches_rules, assert_matches_dijkstra};
use support::pictures::graph_picture;
use support::rng::Rng;
use support::worlds::world_from_layers;
use voxnav::engine::{DStarLite, JumpSearch, Navigator, Pathfinder, Reach, ReachIndex, neighbours};
use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::moves::agent::WaterMode;
use voxnav::world::{Bounds, TerrainFlags};
use voxnav::{
    Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, Movement, Replanner, SearchOptions,
    SearchStatus, VoxelWorld, check_path,
};

fn route(agent: Agent, world: &ChunkedWorld, start: IVec3, goal: IVec3) -> voxnav::SearchResult {
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).unwrap();
    pathfinder
        .find_path(world, start, goal, &SearchOptions::default())
        .unwrap()
}

/// A floor, and over it a wall along x = 2 two blocks high with an opening at the rows `z`
/// marked `.` in `gap` (seen from above: row z of each layer, x to the right).
fn wall_with_gap(gap: [char; 5]) -> ChunkedWorld {
    let rows: Vec<String> = gap
        .iter()
        .map(|&c| format!("..{}..", if c == '.' { '.' } else { '#' }))
        .collect();
    let wall: Vec<&str> = rows.iter().map(String::as_str).collect();
    let floor = ["#####"; 5];
    let air = ["....."; 5];
    world_from_layers(&[&floor, &wall, &wall, &air])
}

#[test]
fn a_two_wide_body_is_refused_by_a_one_wide_gap_and_takes_a_two_wide_one() {
    let golem = Agent::default().with_width(2);
    // From above, x to the right, z down; the body's corner starts at (0, 1, 0) and covers
    // x 0..=1, z 0..=1; the goal's box covers x 3..=4.
    //   one-wide gap:  ..#..    two-wide gap:  ..#..
    //                  ..#..                   ..#..
    //                  .....                   .....
    //                  ..#..                   .....
    //                  ..#..                   ..#..
    let (start, goal) = (IVec3::new(0, 1, 0), IVec3::new(3, 1, 0));
    let narrow = wall_with_gap(['#', '#', '.', '#', '#']);
    assert_eq!(
        route(golem, &narrow, start, goal).status,
        SearchStatus::Unreachable
    );
    // A one-wide body takes the same gap.
    let zombie = route(Agent::default(), &narrow, start, goal);
    assert_eq!(zombie.status, SearchStatus::Found);
    assert!(zombie.path.iter().any(|p| p.x == 2 && p.z == 2));

    let wide = wall_with_gap(['#', '#', '.', '.', '#']);
    let found = route(golem, &wide, start, goal);
    assert_eq!(found.status, SearchStatus::Found);
    // Through the gap: the box's corner column in the wall is at z = 2, so that the box
    // covers rows 2 and 3.
    assert!(found.path.iter().any(|p| p.x == 2 && p.z == 2), "{found:?}");
    assert!(check_path(&wide, &golem, &MoveCosts::default(), &found.path).is_legal());
    let cost = support::oracle::route_cost(&wide, &golem, &MoveCosts::default(), &found.path);
    assert_eq!(Some(cost), found.cost);
}

#[test]
fn a_one_tall_chicken_walks_under_a_slab_roof_that_stops_a_zombie() {
    // Side view (x to the right, y up), one block deep: a tunnel whose roof is a row of
    // bottom slabs one block above the floor.
    //   y = 3  .......
    //   y = 2  ..888..
    //   y = 1  .......
    //   y = 0  #######
    // The gap from y = 1 to the slabs' bottom is one block: a chicken (0.7 tall, 1 block)
    // walks through; a zombie (2 blocks) does not, nor may it climb onto the slabs from the
    // floor (their top is 2.5 blocks up).
    let layers: [&[&str]; 4] = [&["#######"], &["......."], &["..888.."], &["......."]];
    let world = world_from_layers(&layers);
    let (start, goal) = (IVec3::new(0, 1, 0), IVec3::new(6, 1, 0));
    let chicken = Agent::mob("chicken").unwrap();
    assert_eq!((chicken.width, chicken.height), (1, 1));
    let found = route(chicken, &world, start, goal);
    assert_eq!(found.status, SearchStatus::Found);
    assert_eq!(found.path.len(), 7, "straight along the floor: {found:?}");
    let zombie = route(Agent::default(), &world, start, goal);
    assert_eq!(zombie.status, SearchStatus::Unreachable);
}

#[test]
fn a_diagonal_a_one_wide_body_takes_is_no_move_for_a_two_wide_one() {
    // From above (x to the right, z down), floor everywhere, one pillar two high at
    // (3, z = 1). A one-wide body at (0, 0) steps diagonally to (1, 1): its side columns
    // (1, 0) and (0, 1) are clear. A two-wide body at (1, 0) (covering x 1..=2, z 0..=1)
    // stepping diagonally to (2, 1) sweeps the corner column (3, 0) and (1, 2), and its
    // box at (2, 1) covers (3, 1): the pillar. Straight east it also hits the pillar.
    //   .....
    //   ...#.
    //   .....
    //   .....
    let floor = ["#####"; 4];
    let body = [".....", "...#.", ".....", "....."];
    let air = ["....."; 4];
    let world = world_from_layers(&[&floor, &body, &body, &air]);
    let costs = MoveCosts::default();
    let diagonal = IVec3::new(1, 0, 1);
    let one = voxnav::engine::move_in_direction(
        &world,
        &Agent::default(),
        &costs,
        IVec3::new(0, 1, 0),
        diagonal,
    );
    assert_eq!(one.map(|m| m.feet), Some(IVec3::new(1, 1, 1)));
    let wide = Agent::default().with_width(2);
    let two =
        voxnav::engine::move_in_direction(&world, &wide, &costs, IVec3::new(1, 1, 0), diagonal);
    assert_eq!(two, None);
    // The same diagonal one column to the west is clear for the wide body: its swept area
    // (x 0..=2, z 0..=2) misses the pillar.
    let west =
        voxnav::engine::move_in_direction(&world, &wide, &costs, IVec3::new(0, 1, 0), diagonal);
    assert_eq!(
        west.map(|m| (m.feet, m.cost)),
        Some((IVec3::new(1, 1, 1), 14))
    );
    // A pillar at a corner column alone, (2, 0) for the move (0, 0) -> (1, 1), blocks it
    // too: the swept box covers it although neither end's box does.
    let corner = ["..#..", ".....", ".....", "....."];
    let world = world_from_layers(&[&floor, &corner, &corner, &air]);
    assert!(wide.is_valid_position(&world, IVec3::new(0, 1, 1)));
    assert!(
        wide.is_valid_position(&world, IVec3::new(0, 1, 0))
            && !wide.is_valid_position(&world, IVec3::new(1, 1, 0))
    );
    let cut =
        voxnav::engine::move_in_direction(&world, &wide, &costs, IVec3::new(0, 1, 0), diagonal);
    assert_eq!(cut, None);
}

#[test]
fn a_wide_body_stands_on_any_floor_under_it_and_steps_from_the_highest() {
    // Side view, two deep (both z rows alike), x to the right:
    //   y = 1  ....
    //   y = 0  8.##   a bottom slab, a hole, two blocks
    // The 2-wide box with its corner at x = 0 covers the slab and the hole: held up by the
    // slab, its floor is at 8 sixteenths. One step east it covers the hole and a block:
    // floor at 16, a rise of 8, walked without a jump (the step height is 9.6).
    let layers: [&[&str]; 4] = [
        &["8.##", "8.##"],
        &["....", "...."],
        &["....", "...."],
        &["....", "...."],
    ];
    let world = world_from_layers(&layers);
    let wide = Agent::default().with_width(2);
    let costs = MoveCosts::default();
    assert!(wide.is_valid_position(&world, IVec3::new(0, 1, 0)));
    assert!(wide.is_valid_position(&world, IVec3::new(1, 1, 0)));
    // The box must lie inside the world: its corner at x = 3 would put it beyond.
    assert!(!wide.is_valid_position(&world, IVec3::new(3, 1, 0)));
    let step =
        voxnav::engine::move_in_direction(&world, &wide, &costs, IVec3::new(0, 1, 0), IVec3::X)
            .unwrap();
    assert_eq!(
        (step.feet, step.jump, step.cost),
        (IVec3::new(1, 1, 0), false, 10)
    );
    // A box whose footprint holds the slab itself does not fit: the error names that cell.
    let blocked = wide
        .check_position(&world, IVec3::new(0, 0, 0))
        .unwrap_err();
    assert!(blocked.to_string().contains("0,0,0"), "{blocked}");
}

#[test]
fn widths_the_rules_do_not_serve_are_typed_errors() {
    for width in [0, 4] {
        let agent = Agent::default().with_width(width);
        let Err(Error::InvalidSetting(message)) = agent.validate() else {
            panic!("width {width} accepted");
        };
        assert!(message.contains("width"), "{message}");
        assert!(Pathfinder::new(agent, MoveCosts::default()).is_err());
    }
    let ghast = Agent::mob("ghast").unwrap_err();
    assert!(ghast.to_string().contains("ghast"), "{ghast}");
    assert_eq!(Agent::mob("iron_golem").unwrap().width, 2);
    for (mob, width) in [("spider", 2), ("horse", 2), ("ravager", 2), ("zombie", 1)] {
        assert_eq!(Agent::mob(mob).unwrap().width, width, "{mob}");
    }
}

/// A small bounded world at `offset` (straddling chunk borders when the offset says so):
/// a floor, hills, and random blocks of every kind the rules tell apart.
fn random_world(rng: &mut Rng) -> ChunkedWorld {
    let size = IVec3::new(
        5 + rng.below(4) as i32,
        5 + rng.below(3) as i32,
        5 + rng.below(4) as i32,
    );
    // Offsets put the world across chunk borders in x, y and z, negative ones too.
    let offset = IVec3::new(
        rng.pick(&[0, -3, 13, -18]),
        rng.pick(&[0, -2, 14, -17]),
        rng.pick(&[0, -4, 12, 30]),
    );
    let mut world = ChunkedWorld::with_bounds(Bounds::new(offset, offset + size)).unwrap();
    let at = |p: IVec3| offset + p;
    for x in 0..size.x {
        for z in 0..size.z {
            let height = rng.pick(&[0, 0, 0, 0, 1, 1, 2]);
            for y in 0..=height {
                world.set(at(IVec3::new(x, y, z)), Block::Solid).unwrap();
            }
        }
    }
    let blocks = (size.x * size.z / 3) as usize;
    for _ in 0..blocks {
        let p = IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
        let block = rng.pick(&[
            Block::Air,
            Block::Air,
            Block::Solid,
            Block::Solid,
            Block::Water,
            Block::Water,
            Block::Floor(8),
            Block::Fence,
            Block::Door,
            Block::Ladder,
            Block::Lava,
            Block::SlowFloor,
            Block::Cobweb,
        ]);
        world.set(at(p), block).unwrap();
    }
    world
}

fn random_wide_agent(rng: &mut Rng) -> Agent {
    Agent::default()
        .with_width(1 + rng.below(3) as u32)
        .with_height(1 + rng.below(4) as u32)
        .with_max_step_up(1 + rng.below(2) as u32)
        .with_max_drop(1 + rng.below(3) as u32)
        .with_diagonals(rng.below(4) != 0)
        .with_water(rng.pick(&[WaterMode::Wade, WaterMode::Wade, WaterMode::Avoid]))
        .with_opens_doors(rng.below(3) != 0)
}

#[test]
fn walkers_of_every_width_and_height_match_exhaustive_dijkstra() {
    let mut rng = Rng::new(0x0057_1DE5);
    let (mut found, mut unreachable) = ([0; 4], 0);
    let mut moves = Vec::new();
    for round in 0..150 {
        let world = random_world(&mut rng);
        let agent = random_wide_agent(&mut rng);
        let costs = MoveCosts::default()
            .with_jump(rng.below(5) as u32)
            .with_water(rng.below(30) as u32);
        let all = all_feet(&world, &agent);
        let context = format!("round {round}, {agent:?}");
        // The crate's valid positions are the oracle's.
        let bounds = world.bounds().unwrap();
        let mut valid = 0;
        for x in bounds.min.x..bounds.max.x {
            for y in bounds.min.y..bounds.max.y {
                for z in bounds.min.z..bounds.max.z {
                    let p = IVec3::new(x, y, z);
                    valid += usize::from(agent.is_valid_position(&world, p));
                }
            }
        }
        assert_eq!(valid, all.len(), "{context}");
        for &feet in &all {
            assert!(agent.is_valid_position(&world, feet), "{context}: {feet}");
            assert_generator_matches_rules(&world, &agent, &costs, feet, &mut moves, &context);
        }
        if all.is_empty() {
            continue;
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        for _ in 0..4 {
            let (start, goal) = (all[rng.index(all.len())], all[rng.index(all.len())]);
            let result = pathfinder
                .find_path(&world, start, goal, &SearchOptions::default())
                .unwrap();
            let what = format!("{context}: {start} -> {goal}");
            if assert_matches_dijkstra(&world, &agent, &costs, (start, goal), &result, &what) {
                found[agent.width as usize] += 1;
                let check = check_path(&world, &agent, &costs, &result.path);
                assert_eq!(check.cost, result.cost, "{what}");
            } else {
                unreachable += 1;
            }
        }
    }
    assert!(
        found[1] > 40 && found[2] > 40 && found[3] > 20 && unreachable > 20,
        "found by width {found:?}, unreachable {unreachable}"
    );
}

#[test]
fn every_engine_answers_for_every_size_as_the_pathfinder_does() {
    let mut rng = Rng::new(0xE4_61_4E);
    let mut compared = [0; 4];
    for round in 0..60 {
        let world = random_world(&mut rng);
        let agent = random_wide_agent(&mut rng).with_water(rng.pick(&[
            WaterMode::Wade,
            WaterMode::Swim,
            WaterMode::Avoid,
        ]));
        let costs = MoveCosts::default();
        let all: Vec<IVec3> = positions(&world, &agent);
        if all.is_empty() {
            continue;
        }
        let graph = NavGraph::compile(&world, &agent).unwrap();
        assert_eq!(graph.node_count(), all.len(), "round {round}: graph nodes");
        let index = ReachIndex::build(&world, &agent).unwrap();
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        let mut search = GraphSearch::new(costs).unwrap();
        let mut navigator = Navigator::new(agent, costs).unwrap();
        for _ in 0..3 {
            let (start, goal) = (all[rng.index(all.len())], all[rng.index(all.len())]);
            let options = SearchOptions::default();
            let truth = pathfinder.find_path(&world, start, goal, &options).unwrap();
            let what = format!("round {round}, {agent:?}: {start} -> {goal}");
            if truth.status == SearchStatus::Found {
                assert!(
                    check_path(&world, &agent, &costs, &truth.path).is_legal(),
                    "{what}"
                );
            }
            let compiled = search.find_path(&graph, start, goal, &options).unwrap();
            assert_eq!(compiled.cost, truth.cost, "graph {what}");
            let mut dstar = DStarLite::new(agent, costs).unwrap();
            assert_eq!(
                dstar.plan(&world, start, goal).unwrap().cost,
                truth.cost,
                "D* {what}"
            );
            let mut replanner = Replanner::new(agent, costs).unwrap();
            assert_eq!(
                replanner.plan(&world, start, goal).unwrap().cost,
                truth.cost,
                "Replanner {what}"
            );
            let navigated = navigator.find_path(&world, start, goal, &options).unwrap();
            assert_eq!(navigated.cost, truth.cost, "Navigator {what}");
            let reach = index.reach(&world, &agent, start, goal);
            assert_ne!(reach, Reach::Unknown, "index {what}");
            if reach.proves_unreachable() {
                assert_eq!(truth.cost, None, "index {what}");
            }
            compared[agent.width as usize] += 1;
        }
    }
    assert!(
        compared[1] > 20 && compared[2] > 20 && compared[3] > 10,
        "queries by width {compared:?}"
    );
}

/// Every valid position of `agent` in the bounded `world`, by the crate's own test.
fn positions(world: &ChunkedWorld, agent: &Agent) -> Vec<IVec3> {
    let b = world.bounds().unwrap();
    let mut out = Vec::new();
    for x in b.min.x..b.max.x {
        for y in b.min.y..b.max.y {
            for z in b.min.z..b.max.z {
                let p = IVec3::new(x, y, z);
                if agent.is_valid_position(world, p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

#[test]
fn a_wide_agents_graph_updated_after_block_changes_equals_a_fresh_compile() {
    let mut rng = Rng::new(0x61_DE);
    let costs = MoveCosts::default();
    for round in 0..25 {
        let mut world = random_world(&mut rng);
        let agent = random_wide_agent(&mut rng).with_width(2 + rng.below(2) as u32);
        let mut graph = NavGraph::compile(&world, &agent).unwrap();
        let bounds = world.bounds().unwrap();
        let size = bounds.size();
        for _ in 0..8 {
            let p =
                bounds.min + IVec3::new(rng.coord(size.x), rng.coord(size.y), rng.coord(size.z));
            let block = rng.pick(&[
                Block::Solid,
                Block::Air,
                Block::Fence,
                Block::Lava,
                Block::Water,
            ]);
            world.set(p, block).unwrap();
            graph.update(&world, [p]).unwrap();
            let fresh = NavGraph::compile(&world, &agent).unwrap();
            assert_eq!(
                graph_picture(&graph, &costs),
                graph_picture(&fresh, &costs),
                "round {round}, {agent:?}: after {p} = {block:?}"
            );
        }
    }
}

/// The flying and swimming rules for a body `width x height x width`, restated: a position
/// is allowed when every cell of its box is passable (and water, for a swimmer), and a move
/// by `d` when every cell of the box spanning the bodies at both ends is.
fn free_oracle(world: &ChunkedWorld, agent: &Agent, from: IVec3, d: IVec3) -> bool {
    let to = from + d;
    let (w, h) = (agent.width as i32, agent.height as i32);
    let low = from.min(to);
    let high = from.max(to) + IVec3::new(w - 1, h - 1, w - 1);
    (low.x..=high.x).all(|x| {
        (low.y..=high.y).all(|y| {
            (low.z..=high.z).all(|z| {
                let c = IVec3::new(x, y, z);
                world.is_passable(c)
                    && (w == 1 || world.floor_top(c - IVec3::Y) <= 16)
                    && (agent.movement != Movement::Swim
                        || world.terrain(c).contains(TerrainFlags::IN_WATER))
            })
        })
    })
}

#[test]
fn wide_fliers_and_swimmers_follow_the_box_rule_in_every_engine() {
    let mut rng = Rng::new(0xF1_1E5);
    let mut found = 0;
    for round in 0..60 {
        let world = random_world(&mut rng);
        let movement = rng.pick(&[Movement::Fly, Movement::Fly, Movement::Swim]);
        let agent = Agent::flier(1 + rng.below(3) as u32)
            .with_movement(movement)
            .with_width(1 + rng.below(3) as u32);
        let costs = MoveCosts::default();
        let b = world.bounds().unwrap();
        let all: Vec<IVec3> = positions(&world, &agent);
        let mut moves = Vec::new();
        for &from in &all {
            assert!(
                free_oracle(&world, &agent, from, IVec3::ZERO),
                "round {round}: {from}"
            );
            neighbours(&world, &agent, &costs, from, &mut moves);
            let mut mine: Vec<_> = moves.iter().map(|m| (m.feet - from).to_array()).collect();
            mine.sort_unstable();
            let mut theirs = Vec::new();
            for &d in &voxnav::moves::fly::FREE_DIRECTIONS {
                let to = from + d;
                if b.contains(to) && free_oracle(&world, &agent, from, d) {
                    theirs.push(d.to_array());
                }
            }
            theirs.sort_unstable();
            assert_eq!(mine, theirs, "round {round}, {agent:?}: moves from {from}");
        }
        if all.is_empty() {
            continue;
        }
        // Exhaustive Dijkstra over the oracle's moves against the pathfinder and the jump
        // search.
        let start = all[rng.index(all.len())];
        let mut best: HashMap<IVec3, u64> = HashMap::from([(start, 0)]);
        let mut heap = BinaryHeap::from([Reverse((0u64, start.to_array()))]);
        while let Some(Reverse((d, p))) = heap.pop() {
            let p = IVec3::from_array(p);
            if best[&p] < d {
                continue;
            }
            for &step in &voxnav::moves::fly::FREE_DIRECTIONS {
                let q = p + step;
                if !b.contains(q) || !free_oracle(&world, &agent, p, step) {
                    continue;
                }
                let next = d + u64::from(voxnav::moves::fly::step_cost(&costs, step));
                if best.get(&q).is_none_or(|&known| next < known) {
                    best.insert(q, next);
                    heap.push(Reverse((next, q.to_array())));
                }
            }
        }
        let mut pathfinder = Pathfinder::new(agent, costs).unwrap();
        let mut jumper = JumpSearch::new(agent, costs).unwrap();
        for _ in 0..3 {
            let goal = all[rng.index(all.len())];
            let options = SearchOptions::default();
            let what = format!("round {round}, {agent:?}: {start} -> {goal}");
            let result = pathfinder.find_path(&world, start, goal, &options).unwrap();
            assert_eq!(result.cost, best.get(&goal).copied(), "{what}");
            if result.status == SearchStatus::Found {
                found += 1;
                assert!(
                    check_path(&world, &agent, &costs, &result.path).is_legal(),
                    "{what}"
                );
            }
            let jumped = jumper.find_path(&world, start, goal, &options).unwrap();
            assert_eq!(jumped.cost, result.cost, "jump search {what}");
        }
    }
    assert!(found > 40, "found {found}");
}
