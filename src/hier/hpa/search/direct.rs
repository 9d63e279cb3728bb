//! The queries answered by A* over the graph: those whose ends are at most [`DIRECT_CELLS`]
//! chunk columns apart, and those it answers in the probe.
//!
//! The probe: a query past the direct distance whose ends are at most [`PROBE_BLOCKS`] apart
//! first runs A* over the graph with a node budget of [`PROBE_PER_BLOCK`] per block of that
//! distance. When it ends within the budget, found or unreachable, its answer is the query's
//! (exact, and cheap); when the budget runs out, the abstraction answers as before, its
//! expansions counted in the query's.
//!
//! Why: the abstraction has a fixed cost per query (the end cells searched whole, the goal
//! bound, at least one window), which A* over the graph does not pay when its estimate is
//! good. On the shipped 1.21.11 save (`HIER_ENGINE=graph,hpa cargo run --release --example
//! long -- --world ../shared/data/minecraft/vanilla-1.21.11 --pairs 200 --edits 0 --weight 1
//! --distance 40 600`, a quiet 2-core machine, two interleaved runs each), pairs 40 to 69
//! blocks apart took 0.021-0.023 ms per query by A* over the graph and 0.152-0.154 ms through
//! the abstraction, 7x slower; on the built-in hilly terrain at 2048, where A* floods, pairs
//! 16 to 48 blocks apart took 0.75-0.77 ms by A* and 0.29-0.30 ms through the abstraction.
//!
//! | per query, mean | before | with the probe |
//! |---|---|---|
//! | save, 40 to 69 blocks | 0.152-0.154 ms | 0.048-0.049 ms |
//! | save, 40 to 600 blocks (200 pairs) | 0.222-0.230 ms | 0.203-0.204 ms |
//! | terrain, 16 to 48 blocks (mean cost 1.0009 to 1.0008) | 0.291-0.299 ms | 0.252-0.256 ms |
//! | terrain, 48 to 112 blocks | 0.250-0.252 ms | 0.246-0.250 ms |
//! | terrain, 500 to 1 843 blocks (issue 24's set) | untouched: no pair is that near | |
//!
//! Tried: 8 nodes per block (at most 1 024) up to 256 blocks, and 16 per block (at most
//! 2 048) up to 256 and up to 112. Up to 112, the save's pairs 70 to 109 blocks apart fell from
//! 0.164-0.166 ms to 0.113-0.115 ms (A* alone: 0.073-0.076 ms) but the terrain's 48 to 112
//! went from 0.253 to 0.279-0.292 ms (a budget spent, then the abstraction); up to 256, pairs
//! 110 to 285 blocks apart on the save went from 0.20-0.26 ms to 0.25-0.39 ms.

use std::ops::ControlFlow;

use glam::IVec3;

use super::{AbstractSearch, Abstraction};
use crate::error::Result;
use crate::graph::NavGraph;
use crate::search::{SearchOptions, SearchResult, SearchStatus};

/// The cells (chunk distance, the larger of the two axes) within which a query goes straight
/// to A* over the graph by default: the start's cell and its 8 neighbours, where the
/// abstraction's fixed portals cost the most and A* expands little.
pub const DIRECT_CELLS: i32 = 1;

/// The farthest ends (the larger of the x and z distances, plus the y distance, in blocks)
/// that the probe tries by default: see [`AbstractSearch::with_probe_blocks`].
pub const PROBE_BLOCKS: u32 = 64;

/// The probe's node budget per block of distance between the ends (1 024 at
/// [`PROBE_BLOCKS`]).
const PROBE_PER_BLOCK: u64 = 16;

impl AbstractSearch {
    /// Sets the chunk distance (the larger of the two axes) at or below which a query is
    /// answered by A* over the graph: 0 sends every query that leaves its start's cell
    /// through the abstraction, the probe off too (what the tests use to exercise it on small
    /// worlds); negative values count as 0. Defaults to [`DIRECT_CELLS`].
    #[must_use]
    pub fn with_direct_cells(mut self, cells: i32) -> Self {
        self.direct_cells = cells.max(0);
        if cells <= 0 {
            self.probe_blocks = 0;
        }
        self
    }

    /// Sets the distance in blocks (the larger of the x and z distances, plus the y
    /// distance) at or below which a query past the direct distance first tries A* over the
    /// graph with a node budget of 16 per block; 0 turns this probe off. Its answer, when it
    /// ends within the budget (found or unreachable), is exact and is the query's; else the
    /// abstraction answers, its expansions counted too. The abstraction has a fixed cost per
    /// query that A* with a good estimate does not pay: on the 1.21.11 save, pairs 40 to 69
    /// blocks apart took 0.15 ms through the abstraction alone, 0.05 ms with the probe, 0.02 ms
    /// by A* over the graph (see `hpa/search/direct.rs` for the figures and what was tried).
    /// Defaults to [`PROBE_BLOCKS`].
    #[must_use]
    pub fn with_probe_blocks(mut self, blocks: u32) -> Self {
        self.probe_blocks = blocks;
        self
    }

    /// The probe of a query from `start` to `goal` (see the [module docs](self)): its answer,
    /// or the expansions it spent when the abstraction has to answer. Budgets: a node budget
    /// at most the probe's, or a deadline that ran out, ends the query with the probe's
    /// partial answer, as A* over the graph would.
    pub(super) fn probe(
        &mut self,
        hpa: &Abstraction,
        graph: &NavGraph,
        (start, goal): (IVec3, IVec3),
        options: &SearchOptions,
    ) -> Result<ControlFlow<SearchResult, u64>> {
        let d = (start - goal).abs();
        let blocks = d.x.max(d.z).saturating_add(d.y).unsigned_abs();
        if blocks > self.probe_blocks {
            return Ok(ControlFlow::Continue(0));
        }
        let budget = PROBE_PER_BLOCK * u64::from(blocks.max(1));
        let mut first = *options;
        first.max_nodes = Some(options.max_nodes.map_or(budget, |nodes| nodes.min(budget)));
        let result = self.plain(hpa)?.find_path(graph, start, goal, &first)?;
        let spent = options.max_nodes.is_some_and(|nodes| nodes <= budget)
            || options
                .max_time
                .is_some_and(|limit| result.stats.elapsed >= limit);
        Ok(if result.status != SearchStatus::Partial || spent {
            ControlFlow::Break(result)
        } else {
            ControlFlow::Continue(result.stats.expanded)
        })
    }
}
