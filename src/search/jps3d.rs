//! Jump point search for fliers and swimmers: the answers of the flier A* ([`Pathfinder`]
//! with a [`Movement::Fly`](crate::Movement::Fly) or [`Movement::Swim`](crate::Movement::Swim)
//! agent) from far fewer explicit nodes where the world is open.
//!
//! ## Why it is exact
//!
//! The rules are those of [`crate::moves::fly`]: 26 neighbours, a move legal only when the
//! whole box spanned by the body at both ends is allowed. Call a move `e` after an arrival
//! `d` **natural** when every axis `e` changes, `d` changes the same way (`e` is a non-empty
//! subset of `d`'s components: a corner arrival has 7 natural moves, an edge arrival 3, a
//! face arrival 1). A route is **canonical** when, at every position but the start, the move
//! out is natural for the move in or **forced**: the two steps `p -> c -> m` (`p = c - d`,
//! `m = c + e`) cannot be replaced by the canonical steps from `p` to `m` (the move
//! `sign(d + e)`, then, if the displacement is not used up, the move `sign` of the rest), which
//! all lie in the box of `p` and `m`, inside the neighbourhood of `c`. The replacement never
//! costs more, and when it costs the same it has fewer moves or puts the move with more
//! components first: [`JumpSearch::new`] checks these two inequalities for all 26 x 26 pairs
//! of the given [`MoveCosts`] (octile costs pass) and refuses costs that break them. So
//! replacing non-canonical pairs one by one ends (cost, then move count, then the sequence of
//! component counts, a bounded lexicographic order, improve every time) in a canonical route
//! no dearer than the first: every goal has an optimal canonical route.
//!
//! The search is A* over explicit positions. Expanding a position jumps in each of its natural
//! and forced directions (all 26 from the start): a jump steps along its direction and stops
//! (returning the position) at the goal, at a position with a forced move, or at a position
//! from which a jump in a natural sub-direction (recursively) returns something; it returns
//! nothing when the next move is illegal. Along an optimal canonical route, the jump from one
//! of its positions in the route's next direction therefore returns a later position of the
//! route (the next turn at the latest), at the route's cost. A jump may also stop early when
//! its step budget ([`JUMP_BUDGET`]) runs out: that only makes an intermediate position
//! explicit, which the argument allows.
//!
//! Two routes may reach a position at the same cost from different directions, and each needs
//! its own natural moves: a position keeps the set of arrival directions it was reached by at
//! its best cost, and is expanded again (for the new directions only) when an equal-cost
//! arrival brings one it has not expanded yet.
//!
//! ## Uniform costs only, checked on the answer
//!
//! The argument needs every move to cost its step alone, with no
//! [`VoxelWorld::extra_cost`]. The search assumes that and then checks the route it found: when
//! every cell it enters has no extra cost, its cost is the uniform optimum, and no route can
//! cost less than that with extra costs added (they are never negative), so it is optimal. When
//! a cell of the route has an extra cost, the search runs the flier A* instead and returns its
//! answer. Reachability does not depend on costs, so "unreachable" needs no check.
//!
//! ## Speed
//!
//! In open space a diagonal jump's sub-jumps end only at walls, so a jump is cut short by its
//! budget ([`JUMP_BUDGET`]) and the search is close to A* over the canonical moves: fewer
//! expansions, each dearer. Instructions against the flier A* on the same queries (`cargo
//! bench --bench jps3d`, callgrind on `run_astar` / `run_jps`): the 300 `Simple` problems
//! 233 M against 307 M (324 expansions per query against 726, 1.32x faster); 100 pairs in a
//! 96 x 48 x 96 world of pillars and slabs 425 M against 366 M (0.86x); 40 pairs in a
//! 256 x 128 x 256 one 2 276 M against 1 512 M (0.66x). So it pays on `Simple`'s open rooms
//! only.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry;

use ahash::AHashMap;
use std::time::Instant;

use glam::IVec3;

use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::{FREE_DIRECTIONS, free_moves_and_occupancy, occupancy_mask, step_cost};
use crate::search::{Budget, Pathfinder, SearchOptions, SearchResult, SearchStats, SearchStatus};
use crate::world::key::{in_key_range, pack, unpack};
use crate::world::{VoxelWorld, block_column};

/// The tallest body the jump search takes: its neighbourhood masks are read for bodies up to
/// this height.
pub const MAX_JUMP_HEIGHT: u32 = 3;

/// The most positions one jump (with the jumps it spawns) reads before it stops and makes its
/// current position explicit. It bounds the work of a jump through open space, where a corner
/// jump would otherwise scan a volume per step, and makes jumps end on unbounded worlds.
///
/// In open space the jumps a diagonal jump spawns end only at walls, so any budget shorter
/// than the way to a wall stops a diagonal jump after its first step: the search is then A*
/// over the canonical (natural and forced) moves, with short straight runs. Reading fewer
/// positions per jump pays more than the expansions a longer budget saves. Instructions over
/// all 300 `Simple` problems (`cargo bench --bench jps3d`, callgrind on `run_jps`, before the
/// records were reused): budget 1: 284 M (434 expansions per query), 2: 274 M (324), 4:
/// 294 M (230), 8: 358 M (161), 16: 508 M (128), 64: 1 355 M (119); on the pillars set 2
/// gives 485 M and 4 596 M.
pub const JUMP_BUDGET: u32 = 2;

/// The arrival code of the start: every direction is natural there.
const START: usize = 26;

/// The per-direction tables of one body height and one set of costs.
#[derive(Debug, Clone)]
struct Tables {
    /// The cells (occupancy mask bits) the move in each direction needs.
    required: [u64; 26],
    /// For each arrival and each move: the cells of the move and of its canonical replacement
    /// (see the module notes); the move is forced when the first are allowed and the second
    /// are not. Natural moves and moves back to the parent have an empty entry.
    forced: Box<[[(u64, u64); 26]; 26]>,
    /// The natural moves of each arrival (bit `i` for [`FREE_DIRECTIONS`]`[i]`), all 26 for
    /// [`START`].
    natural: [u32; 27],
    /// The natural moves of each direction other than itself, the sub-jumps of a jump.
    sub: [u32; 26],
    /// The step cost of each direction.
    step: [u64; 26],
    /// The cost of a face, an edge and a corner step, for the heuristic.
    kinds: [u64; 3],
    /// The occupancy mask of an open neighbourhood.
    full: u64,
}

/// Jump point search for a flier or swimmer one to [`MAX_JUMP_HEIGHT`] cells tall, with the
/// answers (costs, and routes as cell-by-cell paths) of the flier A*.
///
/// ```
/// use voxnav::engine::JumpSearch;
/// use voxnav::world::DenseWorld;
/// use voxnav::{Agent, IVec3, MoveCosts, SearchOptions};
/// let world = DenseWorld::new(IVec3::new(8, 8, 8))?;
/// let mut jps = JumpSearch::new(Agent::flier(1), MoveCosts::octile())?;
/// let result = jps.find_path(&world, IVec3::ZERO, IVec3::new(7, 3, 5), &SearchOptions::default())?;
/// assert!(result.is_found());
/// assert_eq!(result.path.len(), 8);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct JumpSearch {
    agent: Agent,
    costs: MoveCosts,
    tables: Tables,
    /// The records of the explicit positions by packed position ([`pack`]), and the open set
    /// of `(f, h, packed position)`: emptied, not freed, between queries, so a query grows
    /// neither (their growth was a tenth of a `Simple` query's instructions).
    records: AHashMap<u64, Record>,
    open: BinaryHeap<Reverse<(u64, u64, u64)>>,
}

/// What the search keeps per explicit position.
#[derive(Debug, Clone, Copy)]
struct Record {
    g: u64,
    parent: IVec3,
    /// Arrival codes reached at cost `g` and not expanded yet.
    pending: u32,
    /// Arrival codes expanded at cost `g`.
    done: u32,
}

/// The offset's components, each `-1`, `0` or `1`.
fn sign(v: IVec3) -> IVec3 {
    v.signum()
}

/// How many axes `d` changes.
fn rank(d: IVec3) -> u32 {
    u32::from(d.x != 0) + u32::from(d.y != 0) + u32::from(d.z != 0)
}

/// Whether `e` is natural after `d`: every axis `e` changes, `d` changes the same way.
fn is_natural(d: IVec3, e: IVec3) -> bool {
    (0..3).all(|i| e[i] == 0 || e[i] == d[i])
}

/// The canonical steps from one position to another `v` away (each component in `-2..=2`,
/// not all zero): `sign(v)`, then `sign` of the rest when it is not zero.
fn canonical(v: IVec3) -> (IVec3, Option<IVec3>) {
    let first = sign(v);
    let rest = v - first;
    (first, (rest != IVec3::ZERO).then(|| sign(rest)))
}

/// The occupancy mask bits (layout of `crate::moves::fly`: `span = height + 2` cells a
/// column, rows from one below the feet) of the box spanned by a body `height` tall at `a`
/// and at `b`, both relative to the centre and within one cell of it across.
fn box_bits(height: u32, a: IVec3, b: IVec3) -> u64 {
    let span = height + 2;
    let mut bits = 0u64;
    for x in a.x.min(b.x)..=a.x.max(b.x) {
        for z in a.z.min(b.z)..=a.z.max(b.z) {
            for y in a.y.min(b.y)..a.y.max(b.y) + height as i32 {
                bits |= 1 << (span * block_column(x, z) + (y + 1) as u32);
            }
        }
    }
    bits
}

impl Tables {
    fn new(height: u32, costs: &MoveCosts) -> Self {
        let dirs = FREE_DIRECTIONS;
        let required = dirs.map(|e| box_bits(height, IVec3::ZERO, e));
        let mut forced = Box::new([[(0u64, 0u64); 26]; 26]);
        let mut natural = [0u32; 27];
        natural[START] = (1 << 26) - 1;
        let mut sub = [0u32; 26];
        for (a, &d) in dirs.iter().enumerate() {
            for (j, &e) in dirs.iter().enumerate() {
                if is_natural(d, e) {
                    natural[a] |= 1 << j;
                    if j != a {
                        sub[a] |= 1 << j;
                    }
                    continue;
                }
                let v = d + e;
                if v == IVec3::ZERO {
                    // Back to the parent: the route without the loop is never dearer.
                    continue;
                }
                let p = -d;
                let replacement = match canonical(v) {
                    (first, None) => box_bits(height, p, p + first),
                    (first, Some(_)) => {
                        box_bits(height, p, p + first) | box_bits(height, p + first, e)
                    }
                };
                forced[a][j] = (required[j], replacement);
            }
        }
        Self {
            required,
            forced,
            natural,
            sub,
            step: dirs.map(|d| u64::from(step_cost(costs, d))),
            kinds: [costs.straight, costs.diagonal, costs.corner].map(u64::from),
            full: (1u64 << (9 * (height + 2))) - 1,
        }
    }

    /// The forced moves after the arrival `a` (not [`START`]) at a position whose
    /// neighbourhood is `occupancy`.
    #[inline]
    fn forced_moves(&self, a: usize, occupancy: u64) -> u32 {
        if occupancy == self.full {
            return 0;
        }
        let mut out = 0u32;
        for (j, &(move_cells, replacement)) in self.forced[a].iter().enumerate() {
            if replacement != 0
                && occupancy & move_cells == move_cells
                && occupancy & replacement != replacement
            {
                out |= 1 << j;
            }
        }
        out
    }

    /// The free-space cost from `a` to `b`: the canonical route's, a consistent heuristic
    /// under the costs [`JumpSearch::new`] accepts.
    fn estimate(&self, a: IVec3, b: IVec3) -> u64 {
        let mut v = [
            (a.x - b.x).unsigned_abs(),
            (a.y - b.y).unsigned_abs(),
            (a.z - b.z).unsigned_abs(),
        ];
        v.sort_unstable();
        let [low, mid, high] = v.map(u64::from);
        let [face, edge, corner] = self.kinds;
        low * corner + (mid - low) * edge + (high - mid) * face
    }
}

/// Whether the costs let every non-canonical pair of moves be replaced by its canonical steps
/// (see the module notes): `None` when they do, else the first pair that fails.
fn canonical_cost_failure(costs: &MoveCosts) -> Option<(IVec3, IVec3)> {
    let cost = |d: IVec3| u64::from(step_cost(costs, d));
    for &d in &FREE_DIRECTIONS {
        for &e in &FREE_DIRECTIONS {
            let v = d + e;
            if is_natural(d, e) || v == IVec3::ZERO {
                continue;
            }
            let (before, after) = (cost(d) + cost(e), canonical(v));
            let ok = match after {
                (first, None) => cost(first) <= before,
                (first, Some(second)) => {
                    let now = cost(first) + cost(second);
                    now < before
                        || now == before && (rank(first), rank(second)) > (rank(d), rank(e))
                }
            };
            if !ok {
                return Some((d, e));
            }
        }
    }
    None
}

impl JumpSearch {
    /// A jump search for `agent` (a flier or swimmer one to [`MAX_JUMP_HEIGHT`] cells tall)
    /// under `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are invalid, the agent walks or
    /// is taller than [`MAX_JUMP_HEIGHT`], a step costs nothing, or the costs let a detour
    /// cost less than the canonical steps (a corner step dearer than a face and an edge step
    /// together, for example), which jump point search cannot honour.
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        agent.validate()?;
        costs.validate()?;
        if !agent.movement.is_free() {
            return Err(Error::InvalidSetting(format!(
                "jump point search is for fliers and swimmers, not a {} agent",
                agent.movement.as_str()
            )));
        }
        if agent.height > MAX_JUMP_HEIGHT {
            return Err(Error::InvalidSetting(format!(
                "jump point search takes bodies up to {MAX_JUMP_HEIGHT} cells tall, not {}",
                agent.height
            )));
        }
        if costs.straight == 0 || costs.diagonal == 0 || costs.corner == 0 {
            return Err(Error::InvalidSetting(
                "jump point search needs face, edge and corner steps that cost more than 0".into(),
            ));
        }
        if let Some((d, e)) = canonical_cost_failure(&costs) {
            return Err(Error::InvalidSetting(format!(
                "jump point search needs costs under which the canonical steps are never dearer: \
                 the steps {d} then {e} cost less than the canonical steps between their ends"
            )));
        }
        Ok(Self {
            agent,
            costs,
            tables: Tables::new(agent.height, &costs),
            records: AHashMap::new(),
            open: BinaryHeap::new(),
        })
    }

    /// Finds a route from the feet position `start` to the feet position `goal`: the cost of
    /// the flier A*'s answer, the route cell by cell. [`SearchStats::expanded`] counts the
    /// explicit positions expanded (jump points).
    ///
    /// # Errors
    /// As [`Pathfinder::find_path`]: [`Error::InvalidStart`] or [`Error::InvalidGoal`],
    /// [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`], [`Error::Unbounded`].
    pub fn find_path<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        self.agent
            .check_position(world, start)
            .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        self.agent
            .check_position(world, goal)
            .map_err(|reason| Error::InvalidGoal { pos: goal, reason })?;
        options.check_budgets(world.bounds().is_some())?;
        let mut result = self.search(world, start, goal, options, started);
        let (cost, extra) = self.true_cost(world, &result.path);
        if result.status == SearchStatus::Found && extra {
            // A route through extra costs may not be optimal: the flier A* answers instead.
            let mut fallback =
                Pathfinder::new(self.agent, self.costs)?.find_path(world, start, goal, options)?;
            fallback.stats.expanded += result.stats.expanded;
            fallback.stats.generated += result.stats.generated;
            fallback.stats.elapsed = started.elapsed();
            return Ok(fallback);
        }
        // A found route free of extra costs costs the uniform optimum; a partial one is
        // priced as the flier A* prices it.
        if result.status != SearchStatus::Unreachable {
            result.cost = Some(cost);
        }
        result.stats.elapsed = started.elapsed();
        Ok(result)
    }

    /// The cost of `path` with the extra costs of the cells it enters, and whether any has one.
    fn true_cost<W: VoxelWorld + ?Sized>(&self, world: &W, path: &[IVec3]) -> (u64, bool) {
        let (mut cost, mut extra) = (0u64, false);
        for pair in path.windows(2) {
            let more = world.extra_cost(pair[1]);
            extra |= more != 0;
            cost += u64::from(step_cost(&self.costs, pair[1] - pair[0])) + u64::from(more);
        }
        (cost, extra)
    }

    /// The occupancy mask of the neighbourhood of `feet` and the legal moves from it.
    #[inline]
    fn read<W: VoxelWorld + ?Sized>(&self, world: &W, feet: IVec3) -> (u32, u64) {
        free_moves_and_occupancy(world, &self.agent, feet)
    }

    /// Jumps from `from` (whose neighbourhood is `occupancy`) in the direction `dir`: the
    /// first position that is the goal, has a forced move, or from which a natural
    /// sub-direction's jump returns something; `None` when the next move is illegal first.
    /// A spent `budget` returns the position reached.
    fn jump<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        from: IVec3,
        occupancy: u64,
        dir: usize,
        goal: IVec3,
        budget: &mut u32,
    ) -> Option<IVec3> {
        let d = FREE_DIRECTIONS[dir];
        let required = self.tables.required[dir];
        let (mut at, mut occupancy) = (from, occupancy);
        loop {
            if occupancy & required != required {
                return None;
            }
            let next = at + d;
            if !in_key_range(next) {
                return None;
            }
            if next == goal || *budget == 0 {
                return Some(next);
            }
            *budget -= 1;
            let around = occupancy_mask(world, &self.agent, next);
            if self.tables.forced_moves(dir, around) != 0 {
                return Some(next);
            }
            let mut sub = self.tables.sub[dir];
            while sub != 0 {
                let s = sub.trailing_zeros() as usize;
                sub &= sub - 1;
                if self.jump(world, next, around, s, goal, budget).is_some() {
                    return Some(next);
                }
            }
            at = next;
            occupancy = around;
        }
    }

    fn search<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
        started: Instant,
    ) -> SearchResult {
        let mut records = std::mem::take(&mut self.records);
        let mut open = std::mem::take(&mut self.open);
        records.clear();
        open.clear();
        let result = self.search_with(
            world,
            (start, goal),
            options,
            started,
            &mut records,
            &mut open,
        );
        self.records = records;
        self.open = open;
        result
    }

    /// [`JumpSearch::search`] over emptied `records` and `open`.
    fn search_with<W: VoxelWorld + ?Sized>(
        &self,
        world: &W,
        (start, goal): (IVec3, IVec3),
        options: &SearchOptions,
        started: Instant,
        records: &mut AHashMap<u64, Record>,
        open: &mut BinaryHeap<Reverse<(u64, u64, u64)>>,
    ) -> SearchResult {
        let budget = Budget::new(options, started);
        let tables = &self.tables;
        let mut stats = SearchStats::default();
        records.insert(
            pack(start),
            Record {
                g: 0,
                parent: start,
                pending: 1 << START,
                done: 0,
            },
        );
        let h0 = tables.estimate(start, goal);
        open.push(Reverse((h0, h0, pack(start))));
        stats.generated = 1;
        let mut best = (h0, start);
        while let Some(Reverse((f, h, key))) = open.pop() {
            let at = unpack(key);
            let Some(entry) = records.get_mut(&key) else {
                continue;
            };
            let record = *entry;
            if record.g + h != f || record.pending == 0 {
                continue;
            }
            if at == goal {
                return Self::finish(records, at, SearchStatus::Found, stats);
            }
            if budget.exhausted(stats.expanded) {
                return Self::finish(records, best.1, SearchStatus::Partial, stats);
            }
            entry.done |= entry.pending;
            entry.pending = 0;
            stats.expanded += 1;
            let (legal, occupancy) = self.read(world, at);
            let mut arrivals = record.pending;
            let mut dirs = 0u32;
            while arrivals != 0 {
                let a = arrivals.trailing_zeros() as usize;
                arrivals &= arrivals - 1;
                // Directions already jumped at this cost came from an arrival in `done`.
                let mut wanted = tables.natural[a];
                if a != START {
                    wanted |= tables.forced_moves(a, occupancy);
                }
                dirs |= wanted;
            }
            let mut already = 0u32;
            let mut done = record.done;
            while done != 0 {
                let a = done.trailing_zeros() as usize;
                done &= done - 1;
                already |= tables.natural[a];
                if a != START {
                    already |= tables.forced_moves(a, occupancy);
                }
            }
            dirs &= legal & !already;
            while dirs != 0 {
                let dir = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                let mut jump_budget = JUMP_BUDGET;
                let Some(to) = self.jump(world, at, occupancy, dir, goal, &mut jump_budget) else {
                    continue;
                };
                let steps = (to - at).abs().max_element() as u64;
                let g = record.g + steps * tables.step[dir];
                let bit = 1u32 << dir;
                let fresh = Record {
                    g,
                    parent: at,
                    pending: bit,
                    done: 0,
                };
                let to_key = pack(to);
                let push = match records.entry(to_key) {
                    Entry::Occupied(mut slot) => {
                        let r = slot.get_mut();
                        match g.cmp(&r.g) {
                            Ordering::Greater => false,
                            Ordering::Equal => {
                                let new = (r.pending | r.done) & bit == 0;
                                r.pending |= bit;
                                new
                            }
                            Ordering::Less => {
                                *r = fresh;
                                true
                            }
                        }
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(fresh);
                        true
                    }
                };
                if push {
                    let h = tables.estimate(to, goal);
                    open.push(Reverse((g + h, h, to_key)));
                    stats.generated += 1;
                    if h < best.0 {
                        best = (h, to);
                    }
                }
            }
        }
        SearchResult::unreachable(stats)
    }

    /// The result for a route ending at `end`: its explicit positions joined cell by cell
    /// (consecutive ones lie on one jump's line). The cost is filled in by the caller.
    fn finish(
        records: &AHashMap<u64, Record>,
        end: IVec3,
        status: SearchStatus,
        stats: SearchStats,
    ) -> SearchResult {
        let mut explicit = vec![end];
        let mut at = end;
        while let Some(r) = records.get(&pack(at))
            && r.parent != at
        {
            at = r.parent;
            explicit.push(at);
        }
        explicit.reverse();
        let mut path = vec![explicit[0]];
        for pair in explicit.windows(2) {
            let step = sign(pair[1] - pair[0]);
            let mut p = pair[0];
            while p != pair[1] {
                p += step;
                path.push(p);
            }
        }
        SearchResult {
            status,
            path,
            cost: records.get(&pack(end)).map(|r| r.g),
            stats,
        }
    }
}
