//! The query side of the inexact abstraction: [`AbstractSearch`] and its abstract search over
//! the portals; `search/windows.rs` refines the abstract route through cells and windows.
//!
//! Tried and dropped (`HIER_ENGINE=hpa valgrind --tool=callgrind --toggle-collect='*timed_hpa*'
//! long --size 1024 --pairs 20 --edits 0 --weight 1`: 104.3 M instructions for the 20 queries,
//! 5 422 expansions each): pushing no entry above the goal's key (none would pop before it),
//! 105.5 M, few come after the goal's; the landmark bound alone, without the octile one,
//! 104.9 M and 5 611 expansions; the goal bound's constants without a branch per way, 104.1 M.
//! A weight on the whole estimate, no re-expansions (`HIER_ENGINE=graph,hpa long --size 1024
//! --pairs 100 --edits 0 --weight 1`): 2 129 abstract expansions per query at 1.05 and 1 531
//! at 1.1 against 2 174, for mean cost ratios 1.034 and 1.063 against 1.0078: the bounds fall
//! far short on hills, and the windows repair a route's crossings, not its course.
//!
//! Where a query's instructions go (the same callgrind run, `callgrind_annotate
//! --inclusive=yes`, 103.98 M for the 20 queries, 2 577 abstract expansions each): the windows
//! 38.3 M (their graph A*, 36.0 M), the end cells' searches 8.7 M, the goal bound 3.8 M, the
//! abstract search the other ~53 M, about 1 000 instructions per expansion spread thin:
//! landmark estimates 10.2 M (154 instructions each, 1.3 per expansion, already in vector
//! instructions; 141 and 9.3 M now, see `alt.rs`), the open set 6.0 M, decoding table rows
//! 4.9 M and copying them out 4.7 M, the exits' binary search 3.6 M. Also dropped there:
//! relaxing the row inside the cell's closure instead of copying it out, 104.35 M against
//! 102.83 M; reserving the row's room first, 103.21 M; the goal bound's constants in one array
//! per way without an `Option` (as the branch-free try above), `toward` 2.87 M against 2.83 M.
//! Counted, not worth a change here: 2.0% of the expansions are re-expansions (23 313 of
//! 1 137 634 over the run's 60 searches); 9.2% (4 722 of 51 537) are of portals reached through
//! their cell's table with no exit left and outside the goal's cell, which relax nothing.
//!
//! The exits' binary search is gone: each cell keeps per portal the place of its first exit
//! (a byte, `HpaCell::first_exit`), 102.94 M to 101.15 M instructions for the 20 queries (the
//! same expansions, the same routes). Memory: one byte per portal, the box's 16 bytes per
//! cell paid by the cell's exits, targets and portals in boxes rather than `Vec`s (8 bytes
//! each): at 1024, 9 333 988 to 9 417 383 bytes (47.9% to 48.4% on top of the graph); at
//! 2048, 38 443 282 bytes, 49.2% (`HIER_ENGINE=graph,hpa long --edits 0 --pairs 200`: 9 175
//! expansions, cost ratio 1.0083 / 1.0159, as before). Then whether a portal was reached
//! through its own cell's table by the parent's slot range rather than `slot_cell`:
//! 101.34 M to 100.95 M.
//! Dropped on top of it: leaving unpushed (recorded, without an estimate) the portals of a row
//! with no exit outside the goal's cell, 5 350 to 5 114 expansions per query but 102.66 M
//! (a test per row entry costs more than the expansions it saves); 16-byte records (`g` and
//! `h` in 32 bits, the expanded flag in the stamp's low bit, a cost past 32 bits sent to A*
//! over the graph), 102.97 M to 106.8-107.0 M instructions (a conversion or check per
//! relaxation), for 10% fewer cache misses (`--cache-sim=yes --LL=2097152,16,64`: D1 480 k
//! to 434 k, LL 196.6 k to 177.1 k; at 1024 the 32-byte records, 3.7 MB, already come close
//! to fitting the LL; taken up again below, and kept). Not tried: a bidirectional abstract
//! search. Its backward bound `d(start, v)` has no value for the derived half of the portals
//! (their partner edge `a -> v` bounds `d(L, v)` from above and `d(v, L)` from below, the wrong
//! sides for a bound from the start), so that half would be bounded by the octile estimate
//! alone.
//!
//! A portal reached through its cell's table is settled there and then: its exits are
//! relaxed while the row that reached it is read, and it never enters the open set (its own
//! row adds nothing, as before). Only portals entered from another cell (or from the start)
//! are pushed, estimated and popped. The same routes and cost ratios (`HIER_ENGINE=graph,hpa
//! long --edits 0 --pairs 200`: 1.0083 / 1.0159 at 2048). Expansions count every portal whose
//! exits were relaxed, popped or settled: 9 175 to 17 311 per query at 2048 (5 350 to 9 245 at
//! 1024, 20 pairs), as portals are settled that the search before left unpopped in the open
//! set, and settled again when a cheaper row reaches them; each costs far less than a pop
//! (no estimate, no open set). Popped alone, 5 112 (3 573). Instructions
//! (`HIER_ENGINE=hpa valgrind --tool=callgrind --toggle-collect='*timed_hpa*' long --pairs
//! 20 --edits 0 --weight 1`, the 20 queries): 151.90 M to 148.64 M at 2048, 100.97 M to
//! 100.12 M at 1024 (100.83 M with the exits' loop out of line; 146.48 M and 98.96 M once
//! `relax`, which then fell out of line, was inlined into it again); landmark estimates 9.35 M to
//! 5.76 M and the open set 6.6 M to 3.8 M, against more exits relaxed (a portal settled
//! again at a lower cost relaxes them again). D1 misses (`--cache-sim=yes`, 48 kB, 1024) rose
//! a little, 395.7 k to 409.8 k reads for the whole query: exits relaxed from portals the
//! search would never have popped touch their targets' cells. Interleaved runs, two helpers
//! building (load 4): speed-up over graph A* 15.9x, 16.8x, 16.3x, 17.4x before, 19.3x, 17.9x,
//! 17.9x, 17.5x after (`HIER_ENGINE=graph,hpa long --edits 0 --pairs 200`, same process each).
//! With `relax` inlined again, load 1.6, interleaved: 2.19-2.35 ms per query (16.0x-16.2x)
//! before, 1.99-2.02 ms (17.5x-17.6x) after.
//! Dropped on top of it: 24-byte records (the expanded flag in the stamp's top bit, `g` and
//! `h` kept in 64 bits), 98.94 M to 100.20 M instructions at 1024 for D1 read misses 410.7 k
//! to 388.6 k (-5.4%; alone, on the search before, 100.97 M to 101.26 M and 395.7 k to
//! 376.9 k): no clear gain either way. A true prefetch (`_mm_prefetch`, which needs an
//! `unsafe` call: Rust 1.95 still asks for it outside a `target_feature` function) was tried
//! in session 17 on scratch builds, and dropped: the records and landmark link of each settled
//! portal's first exit target, prefetched while the row was settled (the row settled first,
//! the exits relaxed after), 102.15 M to 108.62 M instructions at 1024 and slower at 2048
//! (`HIER_ENGINE=graph,hpa long --edits 0 --pairs 200 --weight 1`, two interleaved runs:
//! 17.9x and 18.1x over graph A* before, 16.8x and 17.4x after); the cell of each pushed
//! exit target (`hpa.cells[slot_cell[target]]`), 103.28 M, medians of eight interleaved runs
//! (`HIER_ENGINE=hpa`, same flags) 2.19 ms before and 2.43 ms after on a noisy host. The
//! cache simulation cannot show what an early load hides (one was tried, below). Tried
//! again in session 28 on a quiet machine, with the crate's prefetch (`search/prefetch.rs`,
//! which gained the flier's jump search 1.2x-1.5x): a popped portal's row settled first, then
//! the records, landmark links and cells' numbers of every exit target of the settled
//! portals and of itself asked for, then their exits relaxed (the same order of relaxations,
//! as exits lead out of the cell). `HIER_ENGINE=graph,hpa long --pairs 200 --edits 0
//! --weight 1`, two interleaved runs: 1.784 and 1.786 ms per query before, 1.845 and 1.855 ms
//! after; the abstraction alone (`HIER_ENGINE=hpa`) 1.514 and 1.439 before, 1.518 and 1.570
//! after. Not kept: most targets reached are never popped, and their reads are issued
//! close to where they are used.
//!
//! The speed-up grows with the distance (`long` prints it by fifths of the pairs; two runs of
//! `HIER_ENGINE=graph,hpa long --edits 0 --pairs 200 --weight 1`, session 17): 10.1x-10.2x for
//! pairs 502 to 668 blocks apart (8 198 expansions), 13.0x, 14.5x-14.7x, 18.8x-20.2x, and
//! 21.8x-22.8x for 1 334 to 1 842 (27 211): the abstraction's time grows about as the
//! distance (1.1-1.2 ms to 3.1-3.5 ms, about 2 us per block in every fifth, so a query has
//! little fixed cost), graph A*'s faster (11-12 ms to 69-79 ms, the region it floods growing
//! with the route). The mean over all pairs gave 17.4x-17.5x in those runs.
//!
//! How much of a query waits for memory (100 pairs at 2048, quiet, a scratch change to `long`
//! that answers each pair several times in a row, not kept): the abstraction alone, each pair
//! once, 1.56-1.59 ms per query; each pair four times in a row, 1.23-1.24 ms on average, so
//! about 1.12 ms for a query whose memory is cached; in the benchmark, where A* over the graph
//! answers the same pair just before, 1.80-1.86 ms. So about 40% of a benchmark query waits
//! for memory, and even a cached one is past the 0.7 ms that 50x over the graph's A* needs.
//! The misses are spread: with a 2 MB LL standing for the L2 (`HIER_ENGINE=hpa valgrind
//! --tool=callgrind --cache-sim=yes --LL=2097152,16,64 --toggle-collect='*timed_hpa*' long
//! --pairs 20 --edits 0 --weight 1`), 17.1 k LL read misses per query: the records 32%, the
//! landmark values of first reaches 22%, the windows' and end cells' graph search 16%, the
//! tables' rows 8%, the cells and exits 10%.
//!
//! What 50x would need (session 24, `HIER_ENGINE=hpa valgrind --tool=callgrind
//! --toggle-collect='*timed_hpa*' long --pairs 20 --edits 0 --weight 1`, `--inclusive=yes`):
//! 7.63 M instructions per query at 2048, of them the windows 2.28 M (29.9%), the end cells
//! 0.42 M (5.5%), the goal bound 0.18 M, the abstract search the other 4.74 M, with 40.2 k
//! first reaches (each estimated and pushed) for 5.1 k pops. At today's rate (1.75 ms for
//! 7.63 M), the 0.70 ms that 50x over the graph's A* asks is about 3.05 M: the windows and end
//! cells alone take 2.70 M of it, so the abstract search would have to fall about 14x with
//! the windows as they are. A second level with a quarter of the portals per area would not
//! do that alone; the refinement has to shrink with it. Counted at 1024 (20 pairs, a scratch
//! build): per query 823 pops, whose rows offer about 23 k entries, of which about one in ten
//! settles a portal; 706 of the 1 847 portals settled without an estimate lie above the route's
//! cost, so putting those off would spare their exits' first reaches, under 1% of a query.
//! Windows grouping the cells a route only clips (a group at least 8 or 16 blocks across):
//! 7 933 to 8 310 and 8 575 expansions per query (100 pairs), slower.
//!
//! So the records are 16 bytes now ([`Record`]: `g` and `h` in 32 bits, the expanded flag in
//! the stamp's low bit; a cost past 32 bits hands the query to A* over the graph, checked by
//! a unit test below). At 1024, 20 queries (`HIER_ENGINE=hpa valgrind --tool=callgrind
//! --cache-sim=yes --LL=2097152,16,64 --toggle-collect='*timed_hpa*' long --size 1024
//! --pairs 20 --edits 0 --weight 1`): 99.39 M to 102.10 M instructions (+2.7%), D1 read
//! misses 408.3 k to 366.8 k, LL misses 208.9 k to 184.8 k (-11.5%). On the clock, three
//! interleaved quiet runs at 2048 (`HIER_ENGINE=graph,hpa long --edits 0 --pairs 200 --weight
//! 1`): 1.822-1.883 ms to 1.804-1.817 ms per query (18.4x-18.9x to 19.2x-19.4x over graph
//! A*, same processes), faster in each pair of runs. A search per thread also keeps half the
//! memory: 7.6 MB of records at 2048 instead of 15.2 MB.
//! Dropped on top of it: an exit target's octile bound taken from its source portal's, less
//! the exit's cost (admissible whatever the estimator; it spares reading the target's cell and
//! feet): 102.14 M to 103.05 M instructions at 1024, 9 245 to 9 256 expansions per query, and
//! slower on the clock at 2048 (three interleaved quiet runs: 1.798-1.836 ms to 1.837-1.908).
//! Dropped too: early loads (kept by `black_box`, the safe stand-in for a prefetch) of the
//! records of every exit target of a popped portal's cell, before its row is settled: 102.12 M
//! to 107.14 M instructions at 1024, LL misses 173.8 k to 184.2 k (targets never relaxed are
//! loaded too), and slower at 2048 (`HIER_ENGINE=hpa long --edits 0 --pairs 200 --weight 1`,
//! two interleaved quiet runs: 1.580-1.586 ms to 1.624-1.638 ms per query).

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use glam::IVec3;

use super::blocks::HpaCell;
use super::{Abstraction, NO_SLOT};
use crate::error::{Error, Result};
use crate::graph::{GraphSearch, NavGraph};
use crate::hier::cell::chunk_of;
use crate::hier::query::end_nodes;
use crate::search::core::{map_pages, zeroed_records};
use crate::search::heuristic::Heuristic;
use crate::search::open::OpenSet;
use crate::search::{SearchOptions, SearchResult, SearchStats, SearchStatus};

mod direct;
mod windows;

pub use direct::{DIRECT_CELLS, PROBE_BLOCKS};

/// The parent of the portals reached from the start's cell search.
const FROM_START: u32 = u32::MAX - 1;
/// The goal's entry in the open set.
const GOAL: u32 = u32::MAX;
/// The estimate of a slot reached only through its cell's table: asked when an exit reaches
/// it (estimates are kept below it, see [`AbstractSearch::relax`]).
const NO_ESTIMATE: u32 = u32::MAX;
/// How often the abstract search looks at the clock: every this many entries popped.
const CLOCK_INTERVAL: u64 = 256;

/// The abstract search's knowledge of one portal slot: 16 bytes, four words indexed by
/// [`G`], [`H`], [`PARENT`] and [`STAMP`]. A cost past 32 bits is not kept: the query then
/// goes to A* over the graph (see [`AbstractSearch::kept_cost`]). Plain words, so that a fresh
/// array of them (`vec![[0; 4]; n]`) is zeroed memory from the allocator, pages the system
/// maps as a query first touches them, not a write of every record (see
/// [`AbstractSearch::grow_records`]).
type Record = [u32; 4];

/// A [`Record`]'s cost from the start.
const G: usize = 0;
/// A [`Record`]'s heuristic estimate, computed once per query: with the landmarks it reads a
/// few distances, and a slot is often improved more than once.
const H: usize = 1;
/// A [`Record`]'s parent slot.
const PARENT: usize = 2;
/// A [`Record`]'s query stamp (even) when reached in it, plus one once expanded at its
/// present `g` (an older entry of the slot in the open set is then stale); 0 in none.
const STAMP: usize = 3;

/// Whether the slot of `record` was reached in the query of `stamp`.
#[inline]
fn reached(record: &Record, stamp: u32) -> bool {
    record[STAMP] | 1 == stamp | 1
}

/// Whether the slot of `record` was expanded at its present `g` in the query of `stamp`.
#[inline]
fn done(record: &Record, stamp: u32) -> bool {
    record[STAMP] == stamp | 1
}

/// Reusable state for queries over an [`Abstraction`]: the abstract search's records (dense,
/// stamped per query), the searches inside cells and windows, and a [`GraphSearch`] for the
/// queries it answers directly. Keep one per thread and reuse it.
#[derive(Clone, Default)]
pub struct AbstractSearch {
    records: Vec<Record>,
    stamp: u32,
    /// A cost past 32 bits was met in this query: A* over the graph answers it.
    overflowed: bool,
    open: OpenSet,
    /// The key of the entry being expanded: no entry is pushed below it (see
    /// [`AbstractSearch::relax`]).
    floor: u64,
    /// The table row being relaxed, `(portal, cost)`: copied out first, so that the closure
    /// the cell calls per entry is small enough to inline (relaxing inside it cost a call
    /// per entry).
    row: Vec<(u32, u32)>,
    goal: Option<(u64, u32)>,
    /// The costs from the start to its cell's portals, and from the goal's cell's portals
    /// to the goal (Dijkstra inside each cell).
    from_start: Vec<Option<u64>>,
    to_goal: Vec<Option<u64>>,
    plain: Option<GraphSearch>,
    direct_cells: i32,
    probe_blocks: u32,
}

impl std::fmt::Debug for AbstractSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AbstractSearch")
            .field("records", &self.records.len())
            .field("direct_cells", &self.direct_cells)
            .finish_non_exhaustive()
    }
}

impl AbstractSearch {
    /// A search with empty buffers that answers queries within [`DIRECT_CELLS`] by A* over
    /// the graph, and probes with it those within [`PROBE_BLOCKS`] blocks.
    #[must_use]
    pub fn new() -> Self {
        Self {
            direct_cells: DIRECT_CELLS,
            probe_blocks: PROBE_BLOCKS,
            ..Self::default()
        }
    }

    /// Sizes the search's buffers for `hpa` over `graph` now rather than in the first query
    /// on them, as [`GraphSearch::reserve_for`] does for A* over the graph: the abstract
    /// search's records (one per portal slot) and the records of the A* that searches the
    /// end cells and windows (one per node of the graph), their pages mapped now. Without it
    /// the first long query maps the pages of the records it reaches (the records are zeroed
    /// memory): at 2048 (`long`, its first 5 pairs) 1.8-1.9 ms against 0.6-0.7 ms for the
    /// same queries again, and 20-21 ms when the first query wrote all its records.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `hpa`'s move costs are refused by the graph's A* (they
    /// were accepted when `hpa` was built, so this does not happen in practice).
    pub fn reserve_for(&mut self, hpa: &Abstraction, graph: &NavGraph) -> Result<()> {
        self.plain(hpa)?.reserve_for(graph);
        self.grow_records(hpa.slot_cell.len());
        map_pages(&mut self.records);
        Ok(())
    }

    /// Makes room for `slots` records, all reached in no query: a fresh array (stamp 0, never
    /// a query's), the old stamps being of no use to the queries to come, in zeroed memory
    /// that costs a query only the pages it touches ([`zeroed_records`]). At 2048 x 128 x
    /// 2048 a fresh search's first long route took 20 ms writing this array and the graph
    /// search's, 1.8-1.9 ms with both zeroed.
    fn grow_records(&mut self, slots: usize) {
        if self.records.len() < slots {
            self.records = zeroed_records([0; 4], slots);
        }
    }

    /// Finds a route over `graph` from the feet position `start` to `goal` through `hpa`
    /// (built from `graph` and kept current with its updates). Queries within the direct
    /// distance ([`AbstractSearch::with_direct_cells`]) are A* over the graph, as are those
    /// within [`AbstractSearch::with_probe_blocks`] that it answers within a small budget;
    /// others search the abstraction, then refine and smooth its route with A* windows two
    /// cells wide (see the [module docs](crate::hier#the-inexact-abstraction-hpa)): a legal
    /// route that costs what it reports, near-optimal. The heuristic's weight is left out
    /// of both (it made the abstract search slower). When the abstraction finds no route, A*
    /// over the graph decides (with the budget left), so "unreachable" is exact.
    ///
    /// # Errors
    /// As [`GraphSearch::find_path`]; [`Error::StaleGraph`] when `hpa` describes another
    /// version of the graph's world.
    pub fn find_path(
        &mut self,
        hpa: &Abstraction,
        graph: &NavGraph,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        hpa.check_graph(graph)?;
        options.check_budgets(true)?;
        let (start_id, goal_id) = end_nodes(graph, start, goal)?;
        let (start_chunk, goal_chunk) = (chunk_of(start), chunk_of(goal));
        let apart = (start_chunk[0] - goal_chunk[0])
            .abs()
            .max((start_chunk[1] - goal_chunk[1]).abs());
        if apart <= self.direct_cells {
            return self.plain(hpa)?.find_path(graph, start, goal, options);
        }
        let probed = match self.probe(hpa, graph, (start, goal), options)? {
            ControlFlow::Break(answer) => return Ok(answer),
            ControlFlow::Continue(expanded) => expanded,
        };
        let (Some(&start_cell), Some(&goal_cell)) = (
            hpa.by_chunk.get(&start_chunk),
            hpa.by_chunk.get(&goal_chunk),
        ) else {
            return Err(Error::GraphBroken(format!(
                "the abstraction has no cell for the chunk column {start_chunk:?} or \
                 {goal_chunk:?}, where the graph has nodes: update it with every change of the \
                 graph"
            )));
        };
        let costs = hpa.costs;
        // The heuristic's kind without its weight: weighting the octile bound alone inflated
        // it only where it beats the landmark bound, near the goal, so the search put off the
        // goal's side (`long --size 1024 --pairs 100`, weight 1.05: 3 103 abstract expansions
        // per query against 2 124 unweighted); weighting the whole estimate cut few (2 129
        // at 1.05 with no re-expansions, 1 531 at 1.1) for routes as far above optimal as the
        // weight (1.034, 1.063 mean): the windows smooth locally, not the route's course.
        let estimator = Heuristic::new(options.heuristic.kind()).estimator(graph.agent(), &costs);
        let (mut from_start, mut to_goal) = (
            std::mem::take(&mut self.from_start),
            std::mem::take(&mut self.to_goal),
        );
        let goal_cell_ref = &hpa.cells[goal_cell as usize];
        let plain = self.plain(hpa)?;
        let mut expanded = probed + plain.exhaust_within(graph, start_id, &[start_chunk]);
        from_start.clear();
        from_start.extend(
            hpa.cells[start_cell as usize]
                .portals
                .iter()
                .map(|&portal| plain.cost_within(portal)),
        );
        expanded += plain.exhaust_to_within(graph, goal_id, &[goal_chunk]);
        to_goal.clear();
        to_goal.extend(
            goal_cell_ref
                .portals
                .iter()
                .map(|&portal| plain.cost_within(portal)),
        );
        (self.from_start, self.to_goal) = (from_start, to_goal);
        // The landmark bound toward the goal through its cell's portals (see `alt.rs`).
        let bound = hpa.goal_bound(goal_cell, &self.to_goal);
        let estimate = |slot: u32, feet: IVec3| {
            let octile = estimator.between(feet, goal);
            bound.map_or(octile, |bound| {
                octile.max(bound.estimate(&hpa.landmarks, slot, &hpa.slot_cell))
            })
        };
        self.reset(hpa.slot_cell.len());
        let cell = &hpa.cells[start_cell as usize];
        for local in 0..cell.portals.len() {
            if let Some(g) = self.from_start[local] {
                self.relax(cell.base + local as u32, g, FROM_START, |slot| {
                    estimate(slot, cell.feet(local))
                });
            }
        }
        let max_nodes = options.max_nodes.unwrap_or(u64::MAX);
        let deadline = options.deadline(started);
        // The expanded portal closest to the goal by the search's estimate (kept in its record:
        // at least the octile one, which measures the start), for a partial route; the start
        // itself until one is closer.
        let mut closest = (estimator.between(start, goal), FROM_START);
        let mut generated = 0;
        // Entries expanded: the clock is read every `CLOCK_INTERVAL` of them (`expanded` also
        // counts the portals settled through a row, so it steps unevenly).
        let mut pops = 0u64;
        let mut status = SearchStatus::Unreachable;
        while let Some((key, slot)) = self.open.pop() {
            self.floor = key;
            if slot == GOAL {
                // The goal's best known cost is at most this entry's key, and every entry
                // left is at least that: with an admissible heuristic, nothing is cheaper.
                status = SearchStatus::Found;
                break;
            }
            let record = self.records[slot as usize];
            if done(&record, self.stamp) {
                continue;
            }
            let g = u64::from(record[G]);
            if expanded >= max_nodes
                || deadline.is_some_and(|deadline| {
                    pops.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= deadline
                })
            {
                status = SearchStatus::Partial;
                break;
            }
            expanded += 1;
            pops += 1;
            self.records[slot as usize][STAMP] = self.stamp | 1;
            let index = hpa.slot_cell[slot as usize];
            let cell = &hpa.cells[index as usize];
            let local = (slot - cell.base) as usize;
            if u64::from(record[H]) < closest.0 {
                closest = (u64::from(record[H]), slot);
            }
            if index == goal_cell
                && let Some(rest) = self.to_goal[local]
                && self.goal.is_none_or(|(known, _)| g + rest < known)
            {
                self.goal = Some((g + rest, slot));
                self.open.push((g + rest).max(key), g, GOAL);
            }
            // The row of a portal entered from elsewhere (or from the start): each other
            // portal of the cell it improves is settled on the spot, its exits relaxed at
            // once rather than after a trip through the open set (see the module docs). A
            // portal reached through its cell's table never relaxes its own row (in-cell costs
            // are shortest routes, so a second table step never improves), so only entries
            // reach the open set, and an entry's later pop finds it `done`.
            let mut row = std::mem::take(&mut self.row);
            row.clear();
            // The row has no entry of the portal itself.
            cell.for_each_in_row(local, |other, cost| row.push((other as u32, cost)));
            for &(other, cost) in &row {
                let (at, next) = (cell.base + other, g + u64::from(cost));
                if !self.settle(at, next, slot) {
                    continue;
                }
                // Counted as an expansion: its moves out are relaxed here as a popped
                // portal's are (so the count rose when portals began to be settled).
                expanded += 1;
                generated += 1;
                let other = other as usize;
                if index == goal_cell
                    && let Some(rest) = self.to_goal[other]
                    && self.goal.is_none_or(|(known, _)| next + rest < known)
                {
                    self.goal = Some((next + rest, at));
                    self.open.push((next + rest).max(key), next, GOAL);
                }
                generated += self.relax_exits(hpa, cell, other, next, at, &estimate);
            }
            self.row = row;
            generated += self.relax_exits(hpa, cell, local, g, slot, &estimate);
        }
        let end = match status {
            SearchStatus::Found if !self.overflowed => {
                self.goal.map_or(FROM_START, |(_, slot)| slot)
            }
            SearchStatus::Partial if !self.overflowed => closest.1,
            _ => {
                // The abstraction keeps only some crossings: A* over the graph decides, with
                // what is left of the node budget (so also when a cost passed 32 bits).
                let mut rest = *options;
                rest.max_nodes = options
                    .max_nodes
                    .map(|budget| budget.saturating_sub(expanded).max(1));
                rest.max_time = options.max_time.map(|limit| {
                    limit
                        .saturating_sub(started.elapsed())
                        .max(Duration::from_nanos(1))
                });
                let mut result = self.plain(hpa)?.find_path(graph, start, goal, &rest)?;
                result.stats.expanded += expanded;
                result.stats.elapsed = started.elapsed();
                return Ok(result);
            }
        };
        if end == FROM_START {
            // Partial with no expanded portal closer to the goal than the start: the start alone.
            return Ok(SearchResult {
                status,
                path: vec![start],
                cost: Some(0),
                stats: SearchStats {
                    expanded,
                    generated,
                    elapsed: started.elapsed(),
                },
            });
        }
        let target = (status == SearchStatus::Found).then_some(goal_id);
        let (path, cost, window_expanded) = self.refine(hpa, graph, start_id, end, target)?;
        Ok(SearchResult {
            status,
            path,
            cost: Some(cost),
            stats: SearchStats {
                expanded: expanded + window_expanded,
                generated,
                elapsed: started.elapsed(),
            },
        })
    }

    /// The graph search for direct and fallback queries, made for the abstraction's costs.
    fn plain(&mut self, hpa: &Abstraction) -> Result<&mut GraphSearch> {
        if self
            .plain
            .as_ref()
            .is_none_or(|plain| *plain.costs() != hpa.costs)
        {
            self.plain = Some(GraphSearch::new(hpa.costs)?);
        }
        Ok(self.plain.as_mut().expect("made just above"))
    }

    fn reset(&mut self, slots: usize) {
        self.open.reset(0);
        self.floor = 0;
        self.goal = None;
        self.grow_records(slots);
        self.overflowed = false;
        // Even stamps: the odd one above marks an expanded slot.
        self.stamp = self.stamp.wrapping_add(2);
        if self.stamp == 0 {
            self.records.fill([0; 4]);
            self.stamp = 2;
        }
    }

    /// `g` as the records keep it, in 32 bits; `None` for a cost past that, which is dropped
    /// and the query handed to A* over the graph: a route cheaper than `2^32` passes only
    /// slots reached cheaper than that, so nothing else changes (walking costs at the
    /// defaults stay far below it).
    #[inline]
    fn kept_cost(&mut self, g: u64) -> Option<u32> {
        let kept = u32::try_from(g).ok();
        self.overflowed |= kept.is_none();
        kept
    }

    /// Reaches `slot` at cost `g` from `parent` when that is cheaper than known (the
    /// heuristic `estimate` asked on the slot's first reach in this query); whether it was.
    ///
    /// The entry's key is at least the key of the entry being expanded (pathmax): the
    /// landmark bound, stored in bytes on each cell's scale, is not consistent, and a key
    /// below the last one popped goes to the open set's binary heap. The key stays a lower
    /// bound on the cost of a route through the slot (the parent's was, and the step to the
    /// slot is on the route), so the abstract route found is as cheap. With it (`valgrind
    /// --tool=callgrind --toggle-collect='*timed_hpa*' long --size 1024 --pairs 20 --edits 0
    /// --weight 1`): 108.6 M instructions for the 20 queries before, 102.1 M after, the
    /// binary heap's part 3.9 M before, 0.2 M after; 5 727 expansions per query before, 5 478
    /// after (ties among the raised keys pop the latest pushed first). At 2048 (`long
    /// --edits 0 --weight 1`, 200 pairs): 9 015 to 8 825 expansions, cost ratio 1.0080 to
    /// 1.0079 mean, 1.0159 worst both.
    #[expect(
        clippy::inline_always,
        reason = "called per exit relaxed, from the exits' loop inlined at two places"
    )]
    #[inline(always)]
    fn relax(&mut self, slot: u32, g: u64, parent: u32, estimate: impl FnOnce(u32) -> u64) -> bool {
        let Some(g) = self.kept_cost(g) else {
            return false;
        };
        // An estimate is kept below `NO_ESTIMATE`; a smaller one is still a lower bound.
        let narrow = |h: u64| u32::try_from(h.min(u64::from(NO_ESTIMATE - 1))).unwrap_or(0);
        let record = &mut self.records[slot as usize];
        if reached(record, self.stamp) {
            if g >= record[G] {
                return false;
            }
            if record[H] == NO_ESTIMATE {
                record[H] = narrow(estimate(slot));
            }
        } else {
            record[H] = narrow(estimate(slot));
        }
        record[G] = g;
        record[PARENT] = parent;
        record[STAMP] = self.stamp;
        let f = (u64::from(g) + u64::from(record[H])).max(self.floor);
        self.open.push(f, 0, slot);
        true
    }

    /// Reaches `slot` at cost `g` from `parent`, a portal of the same cell, when that is
    /// cheaper than known, and marks it expanded there: the caller relaxes its exits at once,
    /// and its row adds nothing to its parent's. No estimate is asked ([`NO_ESTIMATE`] on a
    /// first reach): the slot enters the open set only when an exit reaches it cheaper.
    #[inline]
    fn settle(&mut self, slot: u32, g: u64, parent: u32) -> bool {
        let Some(g) = self.kept_cost(g) else {
            return false;
        };
        let record = &mut self.records[slot as usize];
        if reached(record, self.stamp) {
            if g >= record[G] {
                return false;
            }
        } else {
            record[H] = NO_ESTIMATE;
        }
        record[G] = g;
        record[PARENT] = parent;
        record[STAMP] = self.stamp | 1;
        true
    }

    /// Relaxes the exits of portal `local` of `cell`, in slot `slot` at cost `g`, each target
    /// estimated by `estimate` (slot, feet) on its first reach; how many improved.
    #[expect(
        clippy::inline_always,
        reason = "called per settled portal of a row: out of line it cost a call each"
    )]
    #[inline(always)]
    fn relax_exits(
        &mut self,
        hpa: &Abstraction,
        cell: &HpaCell,
        local: usize,
        g: u64,
        slot: u32,
        estimate: &impl Fn(u32, IVec3) -> u64,
    ) -> u64 {
        let Some(first) = cell.first_exit(local) else {
            return 0;
        };
        let portal = cell.portals[local];
        let mut generated = 0;
        for (exit, &target_slot) in cell.exits[first..]
            .iter()
            .zip(&cell.targets[first..])
            .take_while(|(exit, _)| exit.from == portal)
        {
            if target_slot == NO_SLOT {
                continue;
            }
            let next = g + u64::from(exit.cost);
            let first_reach = |at: u32| {
                let to = &hpa.cells[hpa.slot_cell[at as usize] as usize];
                estimate(at, to.feet((at - to.base) as usize))
            };
            if self.relax(target_slot, next, slot, first_reach) {
                generated += 1;
            }
        }
        generated
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use super::AbstractSearch;
    use crate::graph::{GraphSearch, NavGraph};
    use crate::hier::Abstraction;
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::search::{SearchOptions, SearchStatus};
    use crate::world::{Block, ChunkedWorld};

    /// A floor 80 blocks long across five cells, at costs whose routes pass 32 bits after some
    /// 40 steps: the abstract search meets costs it cannot keep in its 16-byte records, and
    /// A* over the graph answers, at the exact cost; at the default costs it does not.
    #[test]
    fn costs_past_32_bits_go_to_astar_over_the_graph() {
        let mut world = ChunkedWorld::with_size(IVec3::new(80, 3, 16)).unwrap();
        world
            .fill(IVec3::new(0, 0, 0), IVec3::new(79, 0, 15), Block::Solid)
            .unwrap();
        let graph = NavGraph::compile(&world, &Agent::default()).unwrap();
        let (start, goal) = (IVec3::new(0, 1, 3), IVec3::new(79, 1, 12));
        let options = SearchOptions::default();
        let dear = MoveCosts {
            straight: 100_000_000,
            diagonal: 141_421_356,
            ..MoveCosts::default()
        };
        for (costs, overflows) in [(dear, true), (MoveCosts::default(), false)] {
            let hpa = Abstraction::build(&graph, &costs).unwrap();
            let mut search = AbstractSearch::new().with_direct_cells(0);
            let ours = search
                .find_path(&hpa, &graph, start, goal, &options)
                .unwrap();
            assert_eq!(search.overflowed, overflows);
            let exact = GraphSearch::new(costs)
                .unwrap()
                .find_path(&graph, start, goal, &options)
                .unwrap();
            assert_eq!(ours.status, SearchStatus::Found);
            if overflows {
                assert!(exact.cost.unwrap() > u64::from(u32::MAX));
                assert_eq!((&ours.path, ours.cost), (&exact.path, exact.cost));
            }
        }
    }
}
