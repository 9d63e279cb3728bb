//! [`IndexSlot`]: the one holder of a reachability index, for [`Navigator`](super::Navigator)
//! and [`BatchRouter`](crate::batch::BatchRouter), and [`indexed_search`], the one place a
//! query meets the index.

use std::time::Instant;

use glam::IVec3;

use super::index::ReachIndex;
use crate::error::{Error, Result};
use crate::moves::agent::Agent;
use crate::search::{Goal, Pathfinder, SearchOptions, SearchResult, SearchStats};
use crate::world::VersionedWorld;

/// At most one [`ReachIndex`], always built for the holder's agent: building, refreshing,
/// replacing and asking it, written once for every router that keeps an index.
#[derive(Debug, Clone)]
pub struct IndexSlot {
    agent: Agent,
    index: Option<ReachIndex>,
}

impl IndexSlot {
    /// An empty slot for indices built for `agent`.
    #[must_use]
    pub fn new(agent: Agent) -> Self {
        Self { agent, index: None }
    }

    /// Holds `index` from now on.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the index was built for another agent.
    pub fn set(&mut self, index: ReachIndex) -> Result<()> {
        if *index.agent() != self.agent {
            return Err(Error::InvalidSetting(format!(
                "the reachability index was built for agent {:?}, not for {:?}",
                index.agent(),
                self.agent
            )));
        }
        self.index = Some(index);
        Ok(())
    }

    /// Builds (or rebuilds) the index from `world` and returns it.
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn build<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&ReachIndex> {
        let index = ReachIndex::build(world, &self.agent)?;
        Ok(self.index.insert(index))
    }

    /// Rebuilds the index if it does not describe `world` (another world, or this one
    /// changed); returns whether it rebuilt (`false` without an index).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn refresh<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        match &mut self.index {
            Some(index) => index.refresh(world),
            None => Ok(false),
        }
    }

    /// The index, if there is one.
    #[must_use]
    pub fn get(&self) -> Option<&ReachIndex> {
        self.index.as_ref()
    }

    /// Drops the index.
    pub fn clear(&mut self) {
        self.index = None;
    }
}

/// Searches with `pathfinder`, but first asks `index` (when given and the goal names an exact
/// target): when the index proves the goal unreachable
/// ([`Reach::proves_unreachable`](super::Reach::proves_unreachable): a start and goal in
/// different regions, or one-way moves leading the wrong way), the answer is
/// [`SearchStatus::Unreachable`](crate::SearchStatus::Unreachable) at once, with zero
/// expansions.
///
/// The query is validated once, by [`Pathfinder::search`]: the index answers only for a
/// current index (same world, same version) that labels both positions, which are then valid
/// feet positions, and only under valid budgets; anything else goes to the search, which
/// reports the error. So the index changes only how fast an answer comes, never which answer
/// (or error).
///
/// # Errors
/// As [`Pathfinder::search`].
pub fn indexed_search<W, G>(
    pathfinder: &mut Pathfinder,
    index: Option<&ReachIndex>,
    world: &W,
    start: IVec3,
    goal: &G,
    options: &SearchOptions,
) -> Result<SearchResult>
where
    W: VersionedWorld + ?Sized,
    G: Goal + ?Sized,
{
    if let (Some(index), Some(target)) = (index, goal.exact_target()) {
        let started = Instant::now();
        let budgets_valid =
            options.max_nodes != Some(0) && !options.max_time.is_some_and(|t| t.is_zero());
        if budgets_valid
            && index
                .reach(world, pathfinder.agent(), start, target)
                .proves_unreachable()
        {
            return Ok(SearchResult::unreachable(SearchStats {
                expanded: 0,
                generated: 0,
                elapsed: started.elapsed(),
            }));
        }
    }
    pathfinder.search(world, start, goal, options)
}
