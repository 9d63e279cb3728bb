//! Which end a search starts from. The moves are symmetric (a move is legal exactly when the
//! box it spans is free, whichever way it goes, and costs the same both ways), so a route
//! from the goal to the start, reversed, is a route from the start to the goal of the same
//! cost. A search from a confined end leaves its pocket in few expansions and then heads
//! for an end in the open, where the estimate is nearly right; from the open end, it floods
//! everything the estimate ranks ahead of the pocket's way in. Measured in the module notes.
//!
//! ## Where the large set's expansions are
//!
//! The expansions per query are heavy-tailed. On the 40 pairs of the large pillars world of
//! `benches/jps3d.rs` (tables, 202 174 expansions in all from the chosen ends), 8 queries take
//! 1 921 to 78 012 each and hold 97% of them; 29 take under 250. Per query, from the start
//! always: 7 224; from the goal always: 8 769; from the end this module chooses: 5 054; from
//! the better end of each (known only by running both): 4 174, 17% below the choice. On the
//! heavy queries both ends are heavy (78 012 from the start, 53 363 from the goal; 26 847 and
//! 41 480; 25 388 and 42 010): each end sits in a pocket of slabs and pillars where the
//! estimate falls short, and a route leaves one and enters the other. So racing the ends does
//! not pay, it pays the heavy queries twice. Simulated from the per-query counts: a search from
//! the other end started after `K` expansions and run in turn with the first, 7 870 to 8 300
//! per query for `K` from 200 to 4 000; both ends in turn with doubling budgets, 14 900 to
//! 16 400. (The counts: each query run with a budget too large to matter, which keeps the
//! search at the given start, both ways, and once as chosen; a scratch program, not kept.)
//!
//! So the set's mean hangs on its draw (session 28: `JPS3D_SEED` and `JPS3D_PAIRS` on the
//! bench, `JPS3D_ENGINE=astar` then `tables`, one run each, load under 1). 40 pairs drawn from
//! seeds 13 to 20: the flier A* 24 075, 30 097, 38 574, 11 024, 21 295, 15 391, 24 097 and
//! 11 221 expansions per query, the jump search with tables 5 052, 9 440, 7 397, 3 549, 7 378,
//! 3 012, 6 086 and 3 465 (4.8x, 3.2x, 5.2x, 3.1x, 2.9x, 5.1x, 4.0x and 3.2x fewer); on the
//! clock 3.7x, 2.4x, 3.8x, 2.7x, 1.8x, 3.9x, 3.4x and 2.6x (2.9x over the eight draws
//! together: 26.4 ms of A* per eight queries against 9.1 ms). The bench's draw, seed 13, is
//! among the kindest. 200 pairs from seed 13: 25 512 against 6 068 expansions (4.2x), 3 811 to
//! 3 862 against 1 179 to 1 297 us per query (2.96x to 3.24x, three interleaved runs of three
//! passes each); 400 pairs: 23 153 against 5 110 (4.5x), 3 536 against 982 us (3.6x, one run).
//! The large world's gain on the clock is about 3x, and the figures from the 40 pairs in these
//! notes overstate it by about a quarter. The draws that gain least also pay most per
//! expansion (seed 17: 254 ns against the A*'s 155 ns): their pockets' searches spread the
//! tables' reads over more of the 200 MB. With the landings' table cells prefetched since
//! (`dense.rs`), two series of three interleaved quiet runs: the bench's 40 pairs 4.65x-4.76x
//! and 4.85x-5.01x the flier A*'s speed, 200 pairs 4.04x-4.27x and 4.14x-4.53x; with the
//! median of 50 passes per run (`JPS3D_PASSES=50`, five interleaved pairs of runs), the 40
//! pairs 4.68x-4.74x (3 533-3 610 against 752-762 us per query). Session 29, the eight draws
//! again with the prefetch (five passes, one run each, two series): 4.61x-4.69x, 2.89x-2.97x,
//! 4.64x-5.13x, 3.17x-3.25x, 2.81x-3.14x, 5.25x-5.49x, 4.12x-4.20x and 3.11x-3.16x, 3.71x and
//! 3.87x over the eight together; with the tables in huge pages too (`search/pages.rs`): 5.09x,
//! 3.32x, 4.99x, 3.57x, 3.12x, 6.02x, 4.24x and 3.44x, 4.08x together; the bench's 40 pairs
//! 5.09x-5.12x with 20-pass medians (three interleaved pairs of runs), 200 pairs 4.45x-4.48x.
//! The expansions' ratios (2.9x to 5.2x) now bound the clock's: a jump expansion costs about
//! what an A* expansion does (140 to 160 ns), though it runs 1.7x fewer instructions.
//! Session 30, both engines in one process per run (`JPS3D_SEEDS=13-20 JPS3D_PASSES=5` on the
//! bench, two quiet runs): 4.91x-4.92x, 2.90x-3.01x, 4.91x-5.01x, 3.35x-3.43x, 2.86x-3.03x,
//! 5.36x-5.37x, 3.88x-4.09x and 3.19x-3.24x, **3.77x and 3.88x** over the eight together:
//! a little below the separate runs' 4.08x.
//!
//! Other measures of confinement, tried in session 23 (a scratch build printing, per query,
//! each measure at both ends and the expansions from each end; tables, expansions per query
//! over the queries without a direct route): this module's count gives 15.8 on `Simple`,
//! 343.6 on the pillars, 5 463 on the large set and 95.9 on the tiled set (from the better end
//! of each: 15.1, 252.3, 4 517 and 82.1). The same count over the 125 positions around each
//! end: 15.7, 363.2, 5 451 and 95.2; over 729: worse on the large set (6 415). The sum of the
//! 18 face and edge jump lengths of the tables at each end, the shorter searched from: 16.1,
//! 367.9, 5 098 and 101.8; that sum times this count: 15.9, 336.5, 5 100 and 101.8. The large
//! set's gain of the jump lengths is one query of the 37 (78 009 expansions from the start,
//! 53 364 from the goal: 24 645 fewer, against 11 565 more over the queries it chose worse),
//! and the other sets lose with it (the product wins 2% on the pillars, loses 6% on the tiled
//! set): no measure was kept.
//!
//! Nor does memory decide the large set's clock. Each query answered five times in a row (the
//! later four find its region's tables cached; a scratch change to the bench, not kept) took
//! 1 062 us on average against 1 222 us for each once, so about 1 020 us warm: at most 17% of a query waits for the tables' memory. The
//! small pillars world (tables of 10.8 MB, cached) gives 46.9 us against the flier A*'s 333.9
//! us, 7.1x for 8.6x fewer expansions; the large one 3.0x for 4.8x fewer (one quiet run each,
//! `JPS3D_SET=... JPS3D_ENGINE=tables|astar` on the bench binary). The 5x of issue 25 on the
//! large world needs about 720 us per query: at 5 054 expansions, 142 ns each, against about
//! 200 ns warm. The heavy queries' pockets are searched through, and there the search is a
//! plane's jump point search on every level: a pillar's vertical edge is a column of
//! obstacle corners, so a face jump along a level passing it stops at every height the
//! pillar spans, as a 2D jump past one corner does. The gain over A* in a pocket is then a
//! 2D search's over a map with a fifth of its area in small pillars, a few times, not tens.
//!
//! Nor does a stronger estimate reach the pockets. Landmarks (ALT: the larger of the octile
//! bound and `|d(L, goal) - d(L, v)|` over landmarks `L`, exact distances by Dijkstra over the
//! whole world) at the free cells nearest the world's 8 corners cut a plain A*'s expansions on
//! the 40 pairs by only 1.17x (1 907 156 to 1 631 219 in all; the heaviest query 209 579 to
//! 70 945, most others by under 5%): a slab's detour is local, and a landmark in a corner
//! sees it only from the few cells whose way to it passes that slab. Eight such tables would
//! take 268 MB at 32 bits a cell, beside the jump tables' 204.5 MB, and add eight reads to
//! every landing's estimate. (A scratch program over the same world and pairs, not kept.)
//!
//! Nor does a short probe from each end choose better (session 24, a scratch example over the
//! same 40 pairs, not kept): a search of `B` expansions from each end, then the full search
//! from the end whose probe got less near the other by the octile estimate (the more
//! confined one), the other probe's work counted as lost, gave 6 164, 5 671, 7 032, 5 601
//! and 5 036 expansions per query for `B` of 16, 32, 64, 128 and 256, against 5 053 from
//! the end this module chooses (and 9 891 to 7 216 from the end that got nearer).
//!
//! What the large set's expansions are (the same session: each expansion's position and
//! arrival codes printed by a scratch build, the 9 queries of over 1 500 expansions, 199 k
//! expansions): 94 k are edge arrivals along a vertical plane (`x` or `z` with `y`), 39 k
//! corner arrivals, 22 k both, 33 k edge arrivals along a level, 13 k face arrivals; 154 k
//! (77%) lie on another level than the goal's. So the search climbs or drops one step per
//! expansion: an edge run up a vertical plane stops at its first step, because the face
//! sub-jump along the level from there meets a pillar's corner, which is a forced move at every
//! height the pillar spans. The pushes are few: 1.51 per expansion (306 931 for 202 658), of
//! them 30% with `f` above the route's cost and never popped, so pruning by an upper bound on
//! the cost, if one were known, would save at most about a third of the pushes, a few
//! percent of the instructions.
//!
//! Nor does leaving the intermediate positions implicit (session 26; Harabor and Grastien's
//! pruning of intermediate nodes, 2014, in 3D). Nearly every expanded position is a diagonal
//! jump's stop with no forced move of its own, made explicit only because a sub-jump from it
//! met something. Expanding such a stop at once, where the jump makes it (its sub-jumps'
//! landings offered at their cost through it, then on along the jump), keeps it out of the
//! open set, and the costs stay exact (a scratch build passed `tests/jps3d.rs`' costs and
//! path checks; the route back takes, from each explicit position's parent, the move `sign`
//! of what is left, which retraces a corner, an edge and a face run). But a run then goes on to its wall, offering landings far beyond what the
//! search ever pops. Callgrind on the 40 large pairs (`--toggle-collect='*run_jps*'`, tables):
//! 192.0 M instructions, 5 052 expansions per query as kept; only edge stops left implicit
//! (corners still one step) 753.5 M, 1 944 expansions; corner stops too (a corner run to its
//! wall, JPS-3D's recursion) 3 355 M, 410 expansions. On the clock (one run each, load 1.5):
//! 1 032 to 2 971 and 13 938 us per query; `Simple` 5.6 to 7.2 and 38.9 us; the small
//! pillars 45 to 101 and 352 us. Stopping at the first position a sub-jump meets is what
//! keeps the work near the searched region.

use glam::IVec3;

use super::fits::Fits;
use super::plus::JumpTables;
use crate::search::SearchOptions;
use crate::world::VoxelWorld;

/// Whether to search from `goal` to `start`: when the goal's neighbourhood is more confined
/// than the start's ([`openness`]) and no budget can cut the search short (a partial route
/// must begin at the start).
pub(super) fn from_goal<W: VoxelWorld + ?Sized>(
    fits: &mut Fits,
    plus: Option<&JumpTables>,
    world: &W,
    start: IVec3,
    goal: IVec3,
    options: &SearchOptions,
) -> bool {
    options.max_nodes.is_none()
        && options.max_time.is_none()
        && openness(fits, plus, world, goal) < openness(fits, plus, world, start)
}

/// How open the neighbourhood of `p` is: the "fits" bits around each of the 27 positions
/// around it, counted (read from the tables when there are some), at most 729.
fn openness<W: VoxelWorld + ?Sized>(
    fits: &mut Fits,
    plus: Option<&JumpTables>,
    world: &W,
    p: IVec3,
) -> u32 {
    let mut count = 0;
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                let q = p + IVec3::new(x, y, z);
                count += match plus {
                    Some(plus) => plus.around(q),
                    None => fits.around(world, q),
                }
                .count_ones();
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use crate::moves::agent::{Agent, MoveCosts};
    use crate::moves::pathcheck::check_path;
    use crate::search::jps3d::{JumpSearch, JumpTables};
    use crate::search::{Pathfinder, SearchOptions, SearchStatus};
    use crate::world::DenseWorld;

    /// A goal in a closed box with one hole, a start in the open: the search runs from the
    /// goal (fewer expansions than from the start), and the route still leads from the start
    /// to the goal, legal, at the flier A*'s cost, with and without tables; with a node budget
    /// it runs from the start, and a partial route begins at the start.
    #[test]
    fn a_confined_goal_is_searched_from_and_the_route_still_starts_at_the_start() {
        let mut world = DenseWorld::new(IVec3::new(40, 20, 40)).unwrap();
        // The walls of the box from (20, 2, 20) to (30, 12, 30), a hole at (25, 7, 20).
        for x in 20..=30 {
            for y in 2..=12 {
                for z in 20..=30 {
                    let wall = x == 20 || x == 30 || y == 2 || y == 12 || z == 20 || z == 30;
                    if wall && (x, y, z) != (25, 7, 20) {
                        world.set_blocked(IVec3::new(x, y, z), true).unwrap();
                    }
                }
            }
        }
        let (agent, costs) = (Agent::flier(1), MoveCosts::octile());
        let (start, goal) = (IVec3::new(3, 15, 37), IVec3::new(28, 3, 28));
        let mut fits = super::Fits::default();
        fits.start(&world, &agent, false);
        let options = SearchOptions::default();
        assert!(super::from_goal(
            &mut fits, None, &world, start, goal, &options
        ));
        assert!(!super::from_goal(
            &mut fits, None, &world, goal, start, &options
        ));
        let budget = SearchOptions::default().with_max_nodes(5);
        assert!(!super::from_goal(
            &mut fits, None, &world, start, goal, &budget
        ));
        let expected = Pathfinder::new(agent, costs)
            .unwrap()
            .find_path(&world, start, goal, &options)
            .unwrap();
        let tables = JumpTables::build(&world, agent).unwrap();
        let mut jps = JumpSearch::new(agent, costs).unwrap();
        for with_tables in [false, true] {
            let found = if with_tables {
                jps.find_path_with_tables(&tables, &world, start, goal, &options)
            } else {
                jps.find_path(&world, start, goal, &options)
            }
            .unwrap();
            let back = if with_tables {
                jps.find_path_with_tables(&tables, &world, goal, start, &options)
            } else {
                jps.find_path(&world, goal, start, &options)
            }
            .unwrap();
            assert_eq!(found.cost, expected.cost);
            assert_eq!(back.cost, expected.cost);
            // Both ran from the goal's side: the same search.
            assert_eq!(found.stats.expanded, back.stats.expanded);
            assert_eq!(found.path.first(), Some(&start));
            assert_eq!(found.path.last(), Some(&goal));
            let check = check_path(&world, &agent, &costs, &found.path);
            assert_eq!(check.first_broken, None, "{:?}", found.path);
            assert_eq!(check.cost, found.cost);
            let partial = jps.find_path(&world, start, goal, &budget).unwrap();
            assert_eq!(partial.status, SearchStatus::Partial);
            assert_eq!(partial.path.first(), Some(&start));
        }
    }
}
