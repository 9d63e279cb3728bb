//! The reachability index: labels, instant unreachable answers, staleness.

mod support;

use support::oracle::{all_feet, dijkstra_all, undirected_components};
use support::rng::Rng;
use support::worlds::{hills, hills_with_kinds};
use voxnav::engine::{IndexedRouter, Navigator, Pathfinder, Reach, ReachIndex};
use voxnav::world::parse_text_world;
use voxnav::{Agent, Block, ChunkedWorld, Error, IVec3, MoveCosts, SearchOptions, SearchStatus};

/// A floor at y = 0 on the left, a one-block step, and on the right an island: a platform
/// whose top is 4 blocks above the floor (too high to climb), cut off by a moat of air
/// reaching the bottom of the world.
///
/// Seen from above (layer 1 and up): the island is the `#` block at x = 7..=9.
fn island_world() -> ChunkedWorld {
    let text = "voxnav-world 1\nsize 10 8 3\n\
        layer 0\n#####..###\n#####..###\n#####..###\n\
        layer 1\n...#...###\n...#...###\n...#...###\n\
        layer 2\n.......###\n.......###\n.......###\n\
        layer 3\n.......###\n.......###\n.......###\n\
        layer 4\n.......###\n.......###\n.......###\n\
        layer 5\n..........\n..........\n..........\n\
        layer 6\n..........\n..........\n..........\n\
        layer 7\n..........\n..........\n..........\n";
    parse_text_world(text).expect("valid world")
}

/// A staircase up to the island of [`island_world`]: 2, 3, 4 blocks high at x = 4, 5, 6 on
/// row z = 1, so the island's top (y = 5) is reached from the floor.
fn build_stairs_to_the_island(world: &mut ChunkedWorld) -> voxnav::Result<()> {
    world.fill(IVec3::new(4, 1, 1), IVec3::new(4, 1, 1), Block::Solid)?;
    world.fill(IVec3::new(5, 0, 1), IVec3::new(5, 2, 1), Block::Solid)?;
    world.fill(IVec3::new(6, 0, 1), IVec3::new(6, 3, 1), Block::Solid)
}

#[test]
fn a_goal_on_an_island_is_unreachable_with_zero_expansions() -> voxnav::Result<()> {
    let world = island_world();
    let (start, goal) = (IVec3::new(0, 1, 1), IVec3::new(8, 5, 1));
    let options = SearchOptions::default();

    let mut plain = Pathfinder::new(Agent::default(), MoveCosts::default())?;
    let searched = plain.find_path(&world, start, goal, &options)?;
    assert_eq!(searched.status, SearchStatus::Unreachable);
    assert!(
        searched.stats.expanded > 5,
        "the plain search explores the mainland"
    );

    let mut navigator = Navigator::new(Agent::default(), MoveCosts::default())?;
    let index = navigator.build_index(&world)?;
    assert_ne!(index.region_of(start), index.region_of(goal));
    let answered = navigator.find_path(&world, start, goal, &options)?;
    assert_eq!(answered.status, SearchStatus::Unreachable);
    assert_eq!(answered.stats.expanded, 0);
    assert_eq!(answered.path, Vec::<IVec3>::new());
    assert_eq!(answered.cost, None);

    // From the island the mainland is one drop away: same answer with and without the
    // index, since different labels are the only thing the index acts on.
    let back = navigator.find_path(&world, goal, IVec3::new(4, 1, 1), &options)?;
    assert_eq!(
        back.status,
        SearchStatus::Unreachable,
        "the moat has no bottom"
    );
    let over_step = navigator.find_path(&world, start, IVec3::new(3, 2, 2), &options)?;
    assert_eq!(over_step.status, SearchStatus::Found);
    Ok(())
}

/// A ledge 2 blocks up on the right (x = 4..=5): the agent can jump down from it but cannot
/// climb it, unless `ladder` puts a ladder against it at x = 3, z = 0.
fn ledge_world(ladder: bool) -> ChunkedWorld {
    let foot = if ladder { 'H' } else { '.' };
    let text = format!(
        "voxnav-world 1\nsize 6 6 2\n\
         layer 0\n######\n######\n\
         layer 1\n...{foot}##\n....##\n\
         layer 2\n...{foot}##\n....##\n\
         layer 3\n......\n......\n\
         layer 4\n......\n......\n\
         layer 5\n......\n......\n"
    );
    parse_text_world(&text).expect("valid world")
}

/// A feet position on the floor of [`ledge_world`], and one on the ledge.
const LEDGE_FLOOR: IVec3 = IVec3::new(0, 1, 0);
const LEDGE_TOP: IVec3 = IVec3::new(5, 3, 1);

#[test]
fn a_goal_up_a_ledge_is_one_way_unreachable_with_zero_expansions() -> voxnav::Result<()> {
    let world = ledge_world(false);
    let agent = Agent::default();
    let (low, high) = (LEDGE_FLOOR, LEDGE_TOP);
    let index = ReachIndex::build(&world, &agent)?;
    assert_eq!(index.region_of(low), index.region_of(high));
    assert_eq!(index.reach(&world, &agent, low, high), Reach::OneWay);
    assert_eq!(index.reach(&world, &agent, high, low), Reach::SameRegion);

    let mut navigator = Navigator::new(agent, MoveCosts::default())?.with_index(index)?;
    let options = SearchOptions::default();
    let up = navigator.find_path(&world, low, high, &options)?;
    assert_eq!(up.status, SearchStatus::Unreachable);
    assert_eq!(up.stats.expanded, 0);
    let down = navigator.find_path(&world, high, low, &options)?;
    assert_eq!(down.status, SearchStatus::Found);
    Ok(())
}

#[test]
fn labels_are_exactly_the_undirected_components() -> voxnav::Result<()> {
    let (mut separate_pairs, mut one_way_pairs) = (0, 0);
    for seed in 1..=6 {
        for agent in [
            Agent::default(),
            Agent::default().with_diagonals(false),
            Agent::default().with_max_drop(1).with_max_step_up(2),
        ] {
            let world = if seed % 2 == 0 {
                hills_with_kinds(seed, 9, 8)
            } else {
                hills(seed, 9, 8)
            };
            let feet = all_feet(&world, &agent);
            let index = ReachIndex::build(&world, &agent)?;
            assert_eq!(index.feet_count(), feet.len(), "every valid feet position");
            let components = undirected_components(&world, &agent, &feet);
            for &a in &feet {
                let label_a = index.region_of(a).expect("labelled");
                for &b in &feet {
                    let label_b = index.region_of(b).expect("labelled");
                    assert_eq!(
                        label_a == label_b,
                        components[&a] == components[&b],
                        "seed {seed} {agent:?}: {a} and {b}"
                    );
                }
            }
            // Soundness the way the search sees it: nothing reachable is labelled apart.
            for &a in feet.iter().step_by(7) {
                let reached = dijkstra_all(&world, &agent, &MoveCosts::default(), a);
                for &b in &feet {
                    let reach = index.reach(&world, &agent, a, b);
                    match reach {
                        Reach::Separate => separate_pairs += 1,
                        Reach::OneWay => one_way_pairs += 1,
                        Reach::SameRegion => {}
                        Reach::Unknown => panic!("a current index knows {a} and {b}"),
                    }
                    if reach.proves_unreachable() {
                        assert!(!reached.contains_key(&b), "{a} reaches {b}");
                    }
                }
            }
            let total: u64 = (0..index.region_count() as u32)
                .map(|label| u64::from(index.region_size(label).expect("label")))
                .sum();
            assert_eq!(total, feet.len() as u64);
        }
    }
    assert!(separate_pairs > 100, "the worlds have separate regions");
    assert!(one_way_pairs > 100, "the worlds have ledges");
    Ok(())
}

/// Two plateaus two blocks high on either side of a pit: the agent can drop into the pit
/// from both but climbs out of it to neither, so the plateaus lie in one region, and no
/// route joins them. Neither plateau reaches the other, so one topological order of the
/// parts puts the small one (x = 0..=1) first and proves only the way from small to large
/// unreachable; the index's second order, walked from the other end, proves the other way.
fn plateaus_around_a_pit() -> ChunkedWorld {
    let text = "voxnav-world 1\nsize 10 5 2\n\
        layer 0\n##########\n##########\n\
        layer 1\n##..######\n##..######\n\
        layer 2\n##..######\n##..######\n\
        layer 3\n..........\n..........\n\
        layer 4\n..........\n..........\n";
    parse_text_world(text).expect("valid world")
}

#[test]
fn a_plateau_across_a_pit_is_unreachable_both_ways_with_zero_expansions() -> voxnav::Result<()> {
    let world = plateaus_around_a_pit();
    let agent = Agent::default();
    let (small, pit, large) = (
        IVec3::new(0, 3, 0),
        IVec3::new(2, 1, 1),
        IVec3::new(7, 3, 1),
    );
    let index = ReachIndex::build(&world, &agent)?;
    assert_eq!(index.region_count(), 1);
    assert_eq!(index.reach(&world, &agent, small, large), Reach::OneWay);
    assert_eq!(index.reach(&world, &agent, large, small), Reach::OneWay);
    assert_eq!(index.reach(&world, &agent, large, pit), Reach::SameRegion);
    let options = SearchOptions::default();
    let mut plain = Pathfinder::new(agent, MoveCosts::default())?;
    let searched = plain.find_path(&world, large, small, &options)?;
    assert_eq!(searched.status, SearchStatus::Unreachable);
    assert!(searched.stats.expanded > 10);
    let mut navigator = Navigator::new(agent, MoveCosts::default())?.with_index(index)?;
    let answered = navigator.find_path(&world, large, small, &options)?;
    assert_eq!(answered.status, SearchStatus::Unreachable);
    assert_eq!(answered.stats.expanded, 0);
    assert_eq!(
        navigator.find_path(&world, large, pit, &options)?.status,
        SearchStatus::Found
    );
    Ok(())
}

#[test]
fn the_index_answers_unreachable_exactly_when_a_search_exhausts_between_regions()
-> voxnav::Result<()> {
    let agent = Agent::default();
    let mut plain = Pathfinder::new(agent, MoveCosts::default())?;
    let mut navigator = Navigator::new(agent, MoveCosts::default())?;
    let options = SearchOptions::default();
    let mut instant = 0;
    let world = hills_with_kinds(42, 10, 10);
    let feet = all_feet(&world, &agent);
    navigator.build_index(&world)?;
    for &start in &feet {
        for &goal in feet.iter().step_by(2) {
            let expected = plain.find_path(&world, start, goal, &options)?;
            let got = navigator.find_path(&world, start, goal, &options)?;
            assert_eq!(got.status, expected.status, "{start} -> {goal}");
            assert_eq!(got.cost, expected.cost, "{start} -> {goal}");
            if got.stats.expanded == 0 && start != goal {
                instant += 1;
                assert_eq!(got.status, SearchStatus::Unreachable);
            }
        }
    }
    assert!(instant > 10, "some goals lie in other regions ({instant})");
    Ok(())
}

#[test]
fn a_stale_index_is_never_trusted_and_is_rebuilt_lazily() -> voxnav::Result<()> {
    let mut world = island_world();
    let (start, goal) = (IVec3::new(0, 1, 1), IVec3::new(8, 5, 1));
    let options = SearchOptions::default();
    let agent = Agent::default();
    let index = ReachIndex::build(&world, &agent)?;
    assert_eq!(index.reach(&world, &agent, start, goal), Reach::Separate);

    build_stairs_to_the_island(&mut world)?;
    assert!(!index.is_current(&world));
    assert_eq!(index.reach(&world, &agent, start, goal), Reach::Unknown);

    // Without lazy rebuilds the stale index is ignored: the search finds the stairs.
    let mut ignoring = Navigator::new(agent, MoveCosts::default())?
        .with_index(index.clone())?
        .with_lazy_rebuild(false);
    let found = ignoring.find_path(&world, start, goal, &options)?;
    assert_eq!(found.status, SearchStatus::Found);
    assert_eq!(
        ignoring.index().map(ReachIndex::version),
        Some(index.version())
    );

    // With lazy rebuilds the index is rebuilt first and now joins the two.
    let mut rebuilding = Navigator::new(agent, MoveCosts::default())?.with_index(index)?;
    let found = rebuilding.find_path(&world, start, goal, &options)?;
    assert_eq!(found.status, SearchStatus::Found);
    let rebuilt = rebuilding.index().expect("index");
    assert!(rebuilt.is_current(&world));
    assert_eq!(
        rebuilt.reach(&world, &agent, start, goal),
        Reach::SameRegion
    );

    // Knock the stairs down again: the rebuilt index is stale, and says so.
    let before = rebuilt.clone();
    world.fill(IVec3::new(4, 1, 1), IVec3::new(6, 3, 1), Block::Air)?;
    assert_eq!(before.reach(&world, &agent, start, goal), Reach::Unknown);
    let mut refreshed = before;
    assert!(refreshed.refresh(&world)?);
    assert!(!refreshed.refresh(&world)?, "nothing changed since");
    assert_eq!(
        refreshed.reach(&world, &agent, start, goal),
        Reach::Separate
    );
    Ok(())
}

#[test]
fn an_index_for_another_agent_is_refused_or_ignored() -> voxnav::Result<()> {
    let world = island_world();
    let short = Agent::default().with_height(1);
    let index = ReachIndex::build(&world, &short)?;
    let (start, goal) = (IVec3::new(0, 1, 1), IVec3::new(8, 5, 1));
    assert_eq!(
        index.reach(&world, &Agent::default(), start, goal),
        Reach::Unknown
    );
    let refused = Navigator::new(Agent::default(), MoveCosts::default())?.with_index(index);
    assert!(matches!(refused, Err(Error::InvalidSetting(_))));
    Ok(())
}

#[test]
fn bad_input_gets_the_same_errors_with_and_without_the_index() -> voxnav::Result<()> {
    let world = island_world();
    let mut navigator = Navigator::new(Agent::default(), MoveCosts::default())?;
    navigator.build_index(&world)?;
    let options = SearchOptions::default();
    let floating = IVec3::new(1, 3, 1);
    let start = IVec3::new(0, 1, 1);
    assert!(matches!(
        navigator.find_path(&world, floating, start, &options),
        Err(Error::InvalidStart { .. })
    ));
    assert!(matches!(
        navigator.find_path(&world, start, floating, &options),
        Err(Error::InvalidGoal { .. })
    ));
    assert!(matches!(
        navigator.find_path(
            &world,
            start,
            IVec3::new(8, 5, 1),
            &SearchOptions {
                max_nodes: Some(0),
                ..options
            }
        ),
        Err(Error::ZeroBudget)
    ));
    assert!(matches!(
        ReachIndex::build(&ChunkedWorld::new(), &Agent::default()),
        Err(Error::IndexNeedsBounds)
    ));
    assert!(matches!(
        ReachIndex::build(&world, &Agent::default().with_height(0)),
        Err(Error::InvalidSetting(_))
    ));
    Ok(())
}

#[test]
fn memory_is_four_bytes_a_column_and_ten_a_feet_position() -> voxnav::Result<()> {
    let world = hills(7, 12, 10);
    let index = ReachIndex::build(&world, &Agent::default())?;
    let floor = 12 * 10 + 1;
    assert!(index.memory_bytes() >= 4 * floor + 10 * index.feet_count());
    // Plus two `u32` per region and one bit per strongly connected part.
    assert!(
        index.memory_bytes()
            <= 4 * floor
                + 10 * index.feet_count()
                + 8 * index.region_count()
                + 64
                + index.feet_count().div_ceil(64) * 8
    );
    Ok(())
}

#[test]
fn a_walled_off_grid_cell_is_unreachable_at_once_on_a_flat_world() -> voxnav::Result<()> {
    // Robot grid: the right-hand column is walled off from the rest.
    let grid = voxnav::world::parse_robot_grid("4 3\n0 0 1 0\n0 0 1 0\n0 0 1 0\n")?;
    let agent = Agent::default();
    let world = voxnav::world::FlatWorld::new(grid, agent.height)?;
    let mut navigator = Navigator::new(agent, MoveCosts::default())?;
    navigator.build_index(&world)?;
    let options = SearchOptions::default();
    let walled = navigator.find_path(&world, IVec3::new(0, 1, 0), IVec3::new(3, 1, 2), &options)?;
    assert_eq!(walled.status, SearchStatus::Unreachable);
    assert_eq!(walled.stats.expanded, 0);
    let open = navigator.find_path(&world, IVec3::new(0, 1, 0), IVec3::new(1, 1, 2), &options)?;
    assert_eq!(open.status, SearchStatus::Found);
    Ok(())
}

#[test]
fn answers_stay_right_while_blocks_change() -> voxnav::Result<()> {
    let agent = Agent::default();
    let mut world = hills(77, 10, 10);
    let mut plain = Pathfinder::new(agent, MoveCosts::default())?;
    let mut lazy = Navigator::new(agent, MoveCosts::default())?;
    lazy.build_index(&world)?;
    let mut ignoring = Navigator::new(agent, MoveCosts::default())?.with_lazy_rebuild(false);
    ignoring.build_index(&world)?;
    let mut rng = Rng::new(9);
    let options = SearchOptions::default();
    let mut instant = 0;
    for _ in 0..40 {
        let cell = IVec3::new(rng.coord(10), 1 + rng.coord(6), rng.coord(10));
        let block = if rng.below(2) == 0 {
            Block::Solid
        } else {
            Block::Air
        };
        world.set(cell, block)?;
        let feet = all_feet(&world, &agent);
        for _ in 0..10 {
            let start = rng.pick(&feet);
            let goal = rng.pick(&feet);
            let expected = plain.find_path(&world, start, goal, &options)?;
            for navigator in [&mut lazy, &mut ignoring] {
                let got = navigator.find_path(&world, start, goal, &options)?;
                assert_eq!(got.status, expected.status, "{start} -> {goal}");
                assert_eq!(got.cost, expected.cost, "{start} -> {goal}");
                if got.stats.expanded == 0 && start != goal {
                    instant += 1;
                }
            }
        }
    }
    assert!(
        instant > 0,
        "the lazily rebuilt index answered some queries"
    );
    Ok(())
}

#[test]
fn a_ladder_up_a_ledge_joins_it_to_the_floor() -> voxnav::Result<()> {
    let world = ledge_world(true);
    let agent = Agent::default();
    let (low, high) = (LEDGE_FLOOR, LEDGE_TOP);
    let index = ReachIndex::build(&world, &agent)?;
    assert_eq!(index.reach(&world, &agent, low, high), Reach::SameRegion);
    let mut navigator = Navigator::new(agent, MoveCosts::default())?.with_index(index)?;
    let up = navigator.find_path(&world, low, high, &SearchOptions::default())?;
    assert_eq!(up.status, SearchStatus::Found);
    assert!(
        up.path
            .windows(2)
            .any(|w| w[0].x == w[1].x && w[0].z == w[1].z),
        "climbed"
    );

    // And the random worlds with block kinds do contain climbs, so the label tests see them.
    let mut climbs = 0;
    let mut moves = Vec::new();
    for seed in [2, 4, 6] {
        let world = hills_with_kinds(seed, 9, 8);
        for feet in all_feet(&world, &agent) {
            voxnav::engine::neighbours(&world, &agent, &MoveCosts::default(), feet, &mut moves);
            climbs += moves
                .iter()
                .filter(|m| m.feet.x == feet.x && m.feet.z == feet.z)
                .count();
        }
    }
    assert!(climbs > 0);
    Ok(())
}

/// Issue 14: an index used with another world whose version happened to be equal answered
/// unreachable for a reachable goal. The world's id tells them apart: the index is not
/// current for the other world, says `Unknown`, and a navigator searches (or rebuilds).
#[test]
fn an_index_never_answers_for_another_world_with_the_same_version() -> voxnav::Result<()> {
    let island = island_world();
    let mut bridged = island.clone();
    let (start, goal) = (IVec3::new(0, 1, 1), IVec3::new(8, 5, 1));
    let agent = Agent::default();
    let index = ReachIndex::build(&island, &agent)?;
    assert_eq!(index.reach(&island, &agent, start, goal), Reach::Separate);

    // The clone gets stairs up to the island; the original gets as many writes elsewhere, so
    // both worlds end at the same version with the same bounds.
    build_stairs_to_the_island(&mut bridged)?;
    let mut other = island;
    while other.version() < bridged.version() {
        let x = (other.version() % 3) as i32;
        let block = if other.get(IVec3::new(x, 7, 0)) == Some(Block::Air) {
            Block::Solid
        } else {
            Block::Air
        };
        other.set(IVec3::new(x, 7, 0), block)?;
    }
    assert_eq!(other.version(), bridged.version());
    assert_ne!(other.world_id(), bridged.world_id());
    let mut index = ReachIndex::build(&other, &agent)?;
    assert_eq!(index.reach(&other, &agent, start, goal), Reach::Separate);

    assert!(!index.is_current(&bridged));
    assert_eq!(index.reach(&bridged, &agent, start, goal), Reach::Unknown);
    let options = SearchOptions::default();
    let mut ignoring = Navigator::new(agent, MoveCosts::default())?
        .with_index(index.clone())?
        .with_lazy_rebuild(false);
    let found = ignoring.find_path(&bridged, start, goal, &options)?;
    assert_eq!(found.status, SearchStatus::Found);
    let mut router =
        voxnav::batch::BatchRouter::new(agent, MoveCosts::default())?.with_index(index.clone())?;
    let routed =
        router.route_many_sequential(&bridged, &[voxnav::batch::RouteQuery::block(start, goal)]);
    assert_eq!(
        routed[0].as_ref().map(|r| r.status).ok(),
        Some(SearchStatus::Found)
    );
    assert!(router.refresh_index(&bridged)?, "another world: rebuilt");
    assert!(index.refresh(&bridged)?, "another world: rebuilt");
    assert_eq!(
        index.reach(&bridged, &agent, start, goal),
        Reach::SameRegion
    );
    Ok(())
}

/// A world of any bounds, all air, that counts the cells read: for the index's size checks.
struct Boundless {
    bounds: voxnav::world::Bounds,
    identity: voxnav::world::WorldIdentity,
    reads: std::cell::Cell<u64>,
}

impl Boundless {
    fn new(min: IVec3, max: IVec3) -> Self {
        Self {
            bounds: voxnav::world::Bounds::new(min, max),
            identity: voxnav::world::WorldIdentity::default(),
            reads: std::cell::Cell::new(0),
        }
    }
}

impl voxnav::VoxelWorld for Boundless {
    fn is_passable(&self, p: IVec3) -> bool {
        self.reads.set(self.reads.get() + 1);
        self.bounds.contains(p)
    }

    fn is_standable(&self, _: IVec3) -> bool {
        self.reads.set(self.reads.get() + 1);
        false
    }

    fn bounds(&self) -> Option<voxnav::world::Bounds> {
        Some(self.bounds)
    }
}

impl voxnav::world::VersionedWorld for Boundless {
    fn world_id(&self) -> voxnav::world::WorldId {
        self.identity.id()
    }

    fn version(&self) -> u64 {
        0
    }
}

/// Issue 14: bounds across the whole `i32` range made the build panic, and a world
/// 4 x 2^30 x 4 took 20 s and 2.1 GB; both are refused before any cell is read, and so is
/// a world within the searchable range with more cells than an index reads.
#[test]
fn huge_or_out_of_range_bounds_are_refused_at_once() {
    let refused = |min: IVec3, max: IVec3| {
        let world = Boundless::new(min, max);
        let result = ReachIndex::build(&world, &Agent::default());
        assert_eq!(world.reads.get(), 0, "refused before reading a cell");
        matches!(result, Err(Error::IndexTooLarge(_)))
    };
    assert!(refused(IVec3::MIN, IVec3::MAX));
    assert!(refused(IVec3::ZERO, IVec3::new(4, 1 << 30, 4)));
    assert!(refused(
        IVec3::new(0, -2048, 0),
        IVec3::new(1 << 14, 2048, 1 << 14)
    ));
    assert!(refused(
        IVec3::new(0, 0, 0),
        IVec3::new(1 << 15, 1, 1 << 15)
    ));
    // Empty bounds anywhere: an empty index.
    let empty = Boundless::new(IVec3::MAX, IVec3::MIN);
    let index = ReachIndex::build(&empty, &Agent::default()).unwrap();
    assert_eq!(index.feet_count(), 0);
    assert_eq!(
        index.reach(&empty, &Agent::default(), IVec3::ZERO, IVec3::ONE),
        Reach::Unknown
    );
}

/// A navigator with a walk graph answers over it while the graph describes the world, and
/// recompiles a stale one lazily: costs always those of a search on the world.
#[test]
fn a_navigator_over_the_graph_keeps_the_costs_of_the_world() -> voxnav::Result<()> {
    let mut world = island_world();
    let (start, goal) = (IVec3::new(0, 1, 1), IVec3::new(8, 5, 1));
    let near = IVec3::new(4, 1, 2);
    let options = SearchOptions::default();
    let mut navigator = Navigator::new(Agent::default(), MoveCosts::default())?;
    navigator.build_index(&world)?;
    navigator.build_graph(&world)?;
    let mut plain = Pathfinder::new(Agent::default(), MoveCosts::default())?;
    let over = navigator.find_path(&world, start, near, &options)?;
    assert_eq!(
        over.cost,
        plain.find_path(&world, start, near, &options)?.cost
    );
    assert_eq!(
        navigator.find_path(&world, start, goal, &options)?.status,
        SearchStatus::Unreachable
    );

    // Stairs up to the island: the stale graph and index are rebuilt before the next query.
    world.fill(IVec3::new(4, 1, 1), IVec3::new(4, 1, 1), Block::Solid)?;
    world.fill(IVec3::new(5, 0, 1), IVec3::new(5, 2, 1), Block::Solid)?;
    world.fill(IVec3::new(6, 0, 1), IVec3::new(6, 3, 1), Block::Solid)?;
    let found = navigator.find_path(&world, start, goal, &options)?;
    assert_eq!(found.status, SearchStatus::Found);
    assert_eq!(
        found.cost,
        plain.find_path(&world, start, goal, &options)?.cost
    );
    assert!(
        navigator
            .graph()
            .is_some_and(|graph| graph.node(IVec3::new(6, 4, 1)).is_some()),
        "the graph was recompiled with the stairs"
    );
    Ok(())
}
