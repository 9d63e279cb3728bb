//! The refinement of an abstract route into walk moves: A* windows a few cells wide along
//! it, which smooth the route as they refine it (see [`WINDOW_CELLS`] and [`WINDOW_STRIDE`]).
//!
//! Each window is the graph's own A* (`GraphSearch::search_within`: its dense stamped
//! records, the moves decoded straight from the nodes' words, the dominated detours skipped,
//! the search core's radix heap), kept to the window's chunk columns by one test per move of
//! the column it lands in. It replaced a search of its own over [`NavGraph::for_each_move`]
//! with a hash map of records (`CellSearch`, still the end cells' search), which spent about
//! 1 700 instructions per expansion against the graph A*'s 660, for the same expansions and
//! the same routes.
//!
//! Measured (callgrind, `HIER_ENGINE=hpa valgrind --tool=callgrind
//! --toggle-collect='*timed_hpa*' target/release/examples/long --pairs 20 --edits 0 --weight
//! 1`, split by `callgrind_annotate --inclusive=yes`; 2048 x 128 x 2048, seed 1337):
//!
//! | per query | before | after |
//! |---|---|---|
//! | windows (`refine`) | 10.92 M instructions | **4.31 M (2.5x fewer)** |
//! | whole query | 22.15 M | 15.53 M (-30%) |
//! | of it, the end cells' searches (`CellSearch`) | 0.47 M | 0.75 M (see below) |
//! | expansions (abstract search and windows) | 16 791 | 16 791 |
//!
//! (The end cells' line moved because the old figure counted every `CellSearch` call, windows
//! included, less the windows' total: the split is approximate; the windows' and the
//! whole query's are not.) At 1024 (`--size 1024`): windows 9.09 M to 3.60 M per query, the
//! query 14.96 M to 9.47 M. Costs are unchanged: `HIER_ENGINE=graph,hpa long --edits 0
//! --weight 1` (200 pairs at 2048) gives 18 087 expansions and cost ratios 1.0061 mean,
//! 1.0153 worst before and after. The plain graph A* is not slowed: `valgrind
//! --tool=callgrind --toggle-collect='*GraphSearch*search*' target/release/examples/compare
//! --quick --set long --set short --engine voxnav-graph --rounds 1` counts 75.48 M before,
//! 75.20 M after.
//!
//! What limits the windows now is their expansions, not their cost per expansion (the plain
//! graph A*'s): about 180 per window for a route of 40 nodes (20 pairs at 1024), the octile
//! estimate at the window's start being 91% of the window's cost on average, far less over
//! hills, where the search fills the band between the route and the straight line. Tried at
//! 1024 with the new search (40 pairs, `HIER_ENGINE=graph,hpa`): windows 4 cells wide
//! stepping 3 expanded 17% more (costs 1.0054 / 1.0130 against 1.0057 / 1.0130), 5 stepping
//! 4 34% more, 4 stepping 2 73% more; a weighted estimate in the windows cut the query's
//! expansions from 10 434 to 9 068 (weight 1.1) and 8 052 (1.3) but raised the mean cost
//! ratio to 1.0093 and 1.0216.
//! Skipping the area test per move for nodes inside a chunk column of the area saved 0.9% of
//! the windows' instructions, not kept.
//! The weight tried again with today's windows (`HIER_ENGINE=graph,hpa long --size 1024
//! --pairs 100 --edits 0 --weight 1`, against 4 650 expansions per query, 1.0079 / 1.0156):
//! 1.05 gave 4 426, 1.0081 / 1.0156, 1.1 gave 4 255, 1.0099 / 1.0189 (past the mean's
//! margin); and more instructions at 1.05, 102.94 M to 109.94 M for the 20 queries of the
//! callgrind run below (a weighted estimator leaves the graph A*'s inlined octile goal for the
//! generic one). Not kept.
//!
//! A window's expansions grow faster than its length (the band the octile estimate leaves
//! widens with it), so shorter windows with less overlap pay, as long as no junction between
//! two windows is pinned to a portal (windows 2 cells wide stepping 2 pinned every other
//! border and cost 1.06% above optimal at 512). Junctions now lie inside a cell: a window
//! keeps its route 65% of the way through the cell after its stride ([`JUNCTION`],
//! by nodes, from its entry there to the window's end), where the route has the rest of that
//! cell still ahead to settle the crossing. Measured (`HIER_ENGINE=graph,hpa long --edits 0 --weight 1`,
//! expansions of the abstract search and windows per query, cost ratio mean / worst):
//!
//! | windows | junction | 1024, 100 pairs | 2048, 200 pairs |
//! |---|---|---|---|
//! | 3 wide, stepping 2 | entry into the third cell | 6 436, 1.0055 / 1.0156 | 11 137, 1.0061 / 1.0153 |
//! | 3 wide, stepping 2 | half way through the third | 5 304, 1.0062 / 1.0156 | 9 428, 1.0068 / 1.0153 |
//! | 3 wide, stepping 2 | three quarters through | 4 720, 1.0069 / 1.0167 | |
//! | 3 wide, stepping 3 | (a portal) | 5 088, 1.0080 / 1.0156 | |
//! | 2 wide, stepping 1 | entry into the second cell | 5 872, 1.0062 / 1.0156 | |
//! | 2 wide, stepping 1 | a quarter through the second | 5 204, 1.0067 / 1.0156 | |
//! | 2 wide, stepping 1 | half way through the second | 4 353, 1.0074 / 1.0156 | 8 016, 1.0079 / 1.0169 |
//!
//! (Later, with the landmark bound in bytes and pathmax keys in the abstract search, the
//! same run, 2 wide stepping 1:)
//!
//! | junction | 1024, 100 pairs | 2048, 200 pairs |
//! |---|---|---|
//! | half way through the second | 4 702, 1.0074 / 1.0156 | 8 825, 1.0079 / 1.0159 |
//! | **three fifths through** | **4 388, 1.0077 / 1.0156** | **8 378, 1.0083 / 1.0159** |
//! | 65% through | | 8 300, 1.0083 / 1.0159 |
//! | 70% through | 4 185, 1.0082 / 1.0178 | 8 087, 1.0086 / 1.0159 |
//!
//! Three fifths was kept then. With today's abstract search (the same runs): three fifths
//! 4 705, 1.0078 / 1.0156 and 9 253, 1.0082 / 1.0159; **65%** 4 650, 1.0079 / 1.0156 and
//! 9 175, 1.0083 / 1.0159, 104.3 M to 103.4 M instructions (below), the hills 1.0050 /
//! 1.0461: kept; 70% 8 963, 1.0085 / 1.0159 at 2048, the hills 1.0056 / 1.0461, 101.2 M,
//! left for the mean's margin. Before (three fifths chosen over half way): instructions
//! (`HIER_ENGINE=hpa valgrind --tool=callgrind --toggle-collect='*timed_hpa*' long --size
//! 1024 --pairs 20 --edits 0 --weight 1`, the 20 queries): 102.1 M at half way, 97.5 M at
//! three fifths, the windows (`refine`, inclusive) 43.9 M and 39.3 M; 5 478 and 5 136
//! expansions per query. `tests/hier_hpa.rs`'s hills: mean 1.0049, worst 1.0461 at three
//! fifths.
//!
//! Kept then: 2 wide stepping 1, half way. Instructions (`HIER_ENGINE=hpa valgrind
//! --tool=callgrind --toggle-collect='*timed_hpa*' long --pairs 20 --edits 0 --weight 1
//! --size 1024`): 5.98 M per query before, 4.57 M after; the windows 3.60 M before, 2.20 M
//! after (`refine`, inclusive). `tests/hier_hpa.rs`'s hills: mean 1.0048, worst 1.0461
//! (the module docs give 1.0046 / 1.046 before).
//!
//! At 2048 (`HIER_ENGINE=graph,hpa valgrind --tool=callgrind --toggle-collect='*timed_graph*'
//! --toggle-collect='*timed_hpa*' long --pairs 20 --edits 0 --weight 1`), per query, with the
//! end cells on the graph's loop too (`exhaust_within`): the abstraction 11.54 M instructions
//! before, 9.52 M after (graph A* 170.0 M); the windows 6.50 M before, 2.62 M after;
//! expansions 10 922 and 8 179. Of the figures before, 2.19 M per query is one allocation,
//! not the windows' work: the first query fills the records of its `GraphSearch` for every
//! node of the graph (`Records::reserve_for`, 43.7 M, spread over the 20 queries; it now
//! falls in the first end cell's search). Without it: 9.35 M to 7.33 M per query, the
//! windows 4.31 M to 2.62 M, the end cells 0.75 M to 0.48 M; the abstract search's table
//! rows (2.07 M) are untouched.
//!
//! ## Short routes: one window
//!
//! Windows keep a route to the cells its abstract route passes, so they cannot undo a detour
//! the abstract route takes through the cells beside the direct ones, and on a short route
//! such a detour is a large share of the cost: ends two chunks apart, 18 blocks, cost 7.3%
//! above the optimum on a world of `tests/reach_live.rs` (its router test run with ten times
//! the queries found it; `a_short_route_through_the_abstraction_keeps_near_the_optimum` keeps
//! it). A route whose cells, the box of chunks between its ends' chunks together with the
//! abstract route's cells outside it, are at most [`SHORT_CELLS`] is now refined by one
//! window over all of them: the best route inside them, so never dearer than the windows'
//! (their cells are among them), and the optimum whenever it stays inside.
//!
//! | set | before: cost mean / worst, expansions | 6 cells | **9 cells** | 12 cells |
//! |---|---|---|---|---|
//! | 2048, 16 to 48 blocks | 1.0028 / 1.0616, 2 525 | 1.0014 / 1.0242, 2 571 | 1.0009 / 1.0143, 2 627 | 1.0007 / 1.0143, 2 682 |
//! | 2048, 48 to 96 blocks | 1.0063 / 1.0366, 1 431 | 1.0059 / 1.0366, 1 450 | 1.0058 / 1.0366, 1 498 | 1.0043 / 1.0355, 1 653 |
//!
//! (`HIER_ENGINE=graph,hpa long --distance 16 48 --pairs 200 --edits 0 --weight 1`, and
//! `--distance 48 96`; expansions per query, the abstract search's and windows'.) On the
//! worlds of `tests/reach_live.rs` with ten times its queries, the 7 968 routes two chunks
//! apart went from 0.13% above the optimum on average, 7.33% at worst and 7 routes past 5%,
//! to 0.02%, 4.43% and none; the 397 three chunks apart from 0.97% at worst to exact (with
//! sixteen worlds and twenty times the queries, 6 of 11 477 routes still pass 5%, 12.8% at
//! worst: the optimum may leave the box too). The
//! long-route set (500 blocks and more) is untouched: 17 311 expansions, 1.0083 / 1.0159.
//! The price, at 1024 (`HIER_ENGINE=hpa valgrind --tool=callgrind --toggle-collect='*timed_hpa*'
//! long --size 1024 --distance 16 48 --pairs 200 --edits 0 --weight 1`): 179.0 M to 190.7 M
//! instructions for the 200 queries (+6.5%), 1 131 to 1 216 expansions per query.
//!
//! Tried with the wider run of the test (sixteen worlds, 11 477 routes two or three chunks
//! apart) and not kept: the box grown by a chunk on every side (at most 25 cells) made every
//! route exact there, but those worlds are 3 x 2 chunks, which the grown box covers; on the
//! 2048 terrain the worst costs stayed (1.0143, 1.0366) for 5% and 9% more expansions. A box
//! one chunk thin grown to three (at most 9 cells) sent more routes back to the windows, whose
//! cells then passed 9: 38 routes past 5%, 45.8% at worst. The windows alone, as before this
//! change, on that run: of the 10 859 routes two chunks apart 261 past 5%, 55.3% at worst,
//! 0.75% on average (with the one window: 4, 12.8%, 0.01%); of the 618 three apart 2, 9.3%,
//! 0.33% (2, 8.0%, 0.03%).

use glam::IVec3;

use super::{AbstractSearch, FROM_START};

/// How far through the cell after its stride a window keeps its route: this share of the
/// route's nodes from its entry there to the window's end (see the module docs).
const JUNCTION: (usize, usize) = (13, 20);
use crate::error::{Error, Result};
use crate::graph::{NavGraph, NodeId};
use crate::hier::cell::{Chunk, chunk_of};
use crate::hier::hpa::{Abstraction, SHORT_CELLS, WINDOW_CELLS, WINDOW_STRIDE};
use crate::search::heuristic::{Estimator, Heuristic};

impl AbstractSearch {
    /// The walk route from `start` through the abstract route ending at slot `end` (and on to
    /// `goal` when given), smoothed: [`WINDOW_STRIDE`] cells at a time, A* from where the
    /// route entered the current cell to where it leaves the [`WINDOW_CELLS`]th (or the
    /// goal), over the moves inside those cells, keeping its part up to its last entry into
    /// the cell after the stride; a short route ([`SHORT_CELLS`]) in one window over all its
    /// cells. Each window's A* may take the abstract route's own part, so the smoothed route
    /// costs at most the abstract one. Returns the route, its cost and the windows' expansions.
    pub(super) fn refine(
        &mut self,
        hpa: &Abstraction,
        graph: &NavGraph,
        start: NodeId,
        end: u32,
        goal: Option<NodeId>,
    ) -> Result<(Vec<IVec3>, u64, u64)> {
        // The abstract route's portals, start to end.
        let mut portals = Vec::new();
        let mut slot = end;
        while slot != FROM_START {
            let cell = &hpa.cells[hpa.slot_cell[slot as usize] as usize];
            portals.push(cell.portals[(slot - cell.base) as usize]);
            slot = self.records[slot as usize][super::PARENT];
        }
        portals.reverse();
        portals.extend(goal);
        // Per cell the route passes through, in order: its chunk and the node where the route
        // leaves it (the goal or last portal for the last).
        let mut legs: Vec<(Chunk, NodeId)> = Vec::new();
        let mut at = chunk_of(graph.feet(start));
        let mut previous = start;
        for &portal in &portals {
            let next = chunk_of(graph.feet(portal));
            if next != at {
                legs.push((at, previous));
                at = next;
            }
            previous = portal;
        }
        legs.push((at, previous));
        let estimator = Heuristic::default().estimator(graph.agent(), &hpa.costs);
        let mut path = vec![graph.feet(start)];
        if let Some(region) = short_region(chunk_of(graph.feet(start)), &legs) {
            let mut route = Vec::new();
            let expanded = self.window_leg(
                graph,
                hpa,
                &region,
                (start, legs[legs.len() - 1].1),
                &estimator,
                &mut route,
            )?;
            path.extend(route.iter().map(|&(id, _)| graph.feet(id)));
            return Ok((path, route.last().map_or(0, |&(_, g)| g), expanded));
        }
        let mut cost = 0;
        let mut expanded = 0;
        let mut from = start;
        let mut region: Vec<Chunk> = Vec::with_capacity(WINDOW_CELLS);
        let mut route = Vec::new();
        let mut i = 0;
        while i < legs.len() {
            let last = (i + WINDOW_CELLS).min(legs.len()) - 1;
            region.clear();
            region.extend(legs[i..=last].iter().map(|leg| leg.0));
            expanded += self.window_leg(
                graph,
                hpa,
                &region,
                (from, legs[last].1),
                &estimator,
                &mut route,
            )?;
            if last + 1 == legs.len() {
                cost += route.last().map_or(0, |&(_, g)| g);
                path.extend(route.iter().map(|&(id, _)| graph.feet(id)));
                break;
            }
            // Keep the window's route into the cell after the stride, [`JUNCTION`] of the way
            // (by nodes) from its entry there (the node after its last one in the cells the window steps
            // over) to the window's end: from there on it runs in the window's later cells, so
            // the next window holds a route to its end. A route that stays in the stepped
            // cells (the window no wider than its step) is kept whole, to where the abstract
            // route leaves them.
            let kept = &region[..WINDOW_STRIDE];
            let entry = route
                .iter()
                .rposition(|&(id, _)| kept.contains(&chunk_of(graph.feet(id))))
                .map_or(0, |k| k + 1)
                .min(route.len().saturating_sub(1));
            let keep = entry + (route.len().saturating_sub(1) - entry) * JUNCTION.0 / JUNCTION.1;
            i += WINDOW_STRIDE;
            let Some(&(entry, g)) = route.get(keep) else {
                continue;
            };
            cost += g;
            path.extend(route[..=keep].iter().map(|&(id, _)| graph.feet(id)));
            from = entry;
        }
        Ok((path, cost, expanded))
    }

    /// A* from `from` to `to` over the moves inside `region` (the graph's own A*, kept to the
    /// region's chunk columns); the route's nodes after `from` with their costs from `from`
    /// in `route`, the nodes expanded returned.
    fn window_leg(
        &mut self,
        graph: &NavGraph,
        hpa: &Abstraction,
        region: &[Chunk],
        (from, to): (NodeId, NodeId),
        estimator: &Estimator,
        route: &mut Vec<(NodeId, u64)>,
    ) -> Result<u64> {
        route.clear();
        if from == to {
            return Ok(0);
        }
        let Some(expanded) =
            self.plain(hpa)?
                .search_within(graph, (from, to), region, estimator, route)
        else {
            return Err(Error::GraphBroken(format!(
                "the abstraction has a route from {} to {} inside {region:?} that the graph does \
                 not: update it with every change of the graph",
                graph.feet(from),
                graph.feet(to)
            )));
        };
        Ok(expanded)
    }
}

/// The one window of a short route (see [`SHORT_CELLS`]): the chunks of the box between the
/// start's chunk `first` and the last leg's, and the chunks of the legs outside it; `None`
/// when they are more than [`SHORT_CELLS`].
fn short_region(first: Chunk, legs: &[(Chunk, NodeId)]) -> Option<Vec<Chunk>> {
    let last = legs.last()?.0;
    let (low, high) = (
        [first[0].min(last[0]), first[1].min(last[1])],
        [first[0].max(last[0]), first[1].max(last[1])],
    );
    let side = |axis: usize| usize::try_from(i64::from(high[axis]) - i64::from(low[axis]) + 1);
    if side(0).ok()?.checked_mul(side(1).ok()?)? > SHORT_CELLS {
        return None;
    }
    let mut region: Vec<Chunk> = (low[0]..=high[0])
        .flat_map(|x| (low[1]..=high[1]).map(move |z| [x, z]))
        .collect();
    for &(chunk, _) in legs {
        if !region.contains(&chunk) {
            if region.len() == SHORT_CELLS {
                return None;
            }
            region.push(chunk);
        }
    }
    Some(region)
}
