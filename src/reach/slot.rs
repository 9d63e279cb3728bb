//! [`IndexSlot`]: the one holder of a reachability index and a compiled walk graph, for
//! [`Navigator`](super::Navigator) and [`BatchRouter`](crate::batch::BatchRouter), and
//! [`indexed_search`], the one place a query meets the index.

use std::time::Instant;

use glam::IVec3;

use super::index::ReachIndex;
use crate::error::{Error, Result};
use crate::graph::{GraphSearch, NavGraph};
use crate::moves::agent::Agent;
use crate::search::{Goal, Pathfinder, SearchOptions, SearchResult, SearchStats};
use crate::world::chunked::Changes;
use crate::world::{VersionedWorld, WorldId};

/// At most one [`ReachIndex`] and one [`NavGraph`], always built for the holder's agent:
/// building, refreshing, replacing and asking them, written once for every router that
/// keeps them.
///
/// Both remember which world they describe and at which version; a router trusts them only
/// for that world at that version, and otherwise searches the world itself.
#[derive(Debug, Clone)]
pub struct IndexSlot {
    agent: Agent,
    index: Option<ReachIndex>,
    graph: Option<KeptGraph>,
}

/// A walk graph and the world (id and version) it describes.
#[derive(Debug, Clone)]
struct KeptGraph {
    graph: NavGraph,
    world: WorldId,
    version: u64,
}

impl KeptGraph {
    fn describes<W: VersionedWorld + ?Sized>(&self, world: &W) -> bool {
        world.world_id() == self.world
            && world.version() == self.version
            && world.bounds() == Some(self.graph.bounds())
    }
}

impl IndexSlot {
    /// An empty slot for indices and graphs built for `agent`.
    #[must_use]
    pub fn new(agent: Agent) -> Self {
        Self {
            agent,
            index: None,
            graph: None,
        }
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

    /// Builds (or rebuilds) the index from `world` and returns it: from the held graph when
    /// it describes `world`, otherwise from a graph compiled for the purpose.
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn build<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&ReachIndex> {
        let index = match self.current_graph(world) {
            Some(graph) => ReachIndex::from_graph(world, graph)?,
            None => ReachIndex::build(world, &self.agent)?,
        };
        Ok(self.index.insert(index))
    }

    /// Rebuilds the index if it does not describe `world` (another world, or this one
    /// changed); returns whether it rebuilt (`false` without an index).
    ///
    /// # Errors
    /// As [`ReachIndex::build`].
    pub fn refresh<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        match &self.index {
            Some(index) if !index.is_current(world) => {
                self.build(world)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Compiles (or recompiles) the walk graph of `world`: queries on `world` are then
    /// answered by A* over the graph ([`GraphSearch`]) while it describes the world.
    ///
    /// # Errors
    /// As [`NavGraph::compile`].
    pub fn build_graph<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<&NavGraph> {
        let graph = NavGraph::compile(world, &self.agent)?;
        let kept = self.graph.insert(KeptGraph {
            graph,
            world: world.world_id(),
            version: world.version(),
        });
        Ok(&kept.graph)
    }

    /// Brings the graph up to date after the blocks in `changes` changed in `world`: a local
    /// update ([`NavGraph::apply_changes`]) when the graph was built from `world` and
    /// `changes` holds every change since (as [`ChunkedWorld::take_changes`] reports them
    /// when taken after each graph update), a new compile for another world. A held index is
    /// relabelled from the updated graph. Returns whether there is a graph.
    ///
    /// [`ChunkedWorld::take_changes`]: crate::ChunkedWorld::take_changes
    ///
    /// # Errors
    /// As [`NavGraph::apply_changes`] and [`NavGraph::compile`].
    pub fn apply_changes<W: VersionedWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<bool> {
        let Some(kept) = &mut self.graph else {
            return Ok(false);
        };
        if kept.world == world.world_id() && world.bounds() == Some(kept.graph.bounds()) {
            kept.graph.apply_changes(world, changes)?;
            kept.version = world.version();
        } else {
            self.build_graph(world)?;
        }
        if self.index.is_some() {
            self.refresh(world)?;
        }
        Ok(true)
    }

    /// Recompiles the graph if it does not describe `world`; returns whether it did (`false`
    /// without a graph).
    ///
    /// # Errors
    /// As [`NavGraph::compile`].
    pub fn refresh_graph<W: VersionedWorld + ?Sized>(&mut self, world: &W) -> Result<bool> {
        match &self.graph {
            Some(kept) if !kept.describes(world) => {
                self.build_graph(world)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The graph, if there is one (whichever world and version it describes).
    #[must_use]
    pub fn graph(&self) -> Option<&NavGraph> {
        self.graph.as_ref().map(|kept| &kept.graph)
    }

    /// The graph when it describes `world` as it is now.
    #[must_use]
    pub fn current_graph<W: VersionedWorld + ?Sized>(&self, world: &W) -> Option<&NavGraph> {
        self.graph
            .as_ref()
            .filter(|kept| kept.describes(world))
            .map(|kept| &kept.graph)
    }

    /// Drops the graph: queries search the world itself from then on.
    pub fn clear_graph(&mut self) {
        self.graph = None;
    }

    /// Answers one query: the index first ([`indexed_search`]), then A* over the graph when
    /// it describes `world`, was compiled for the pathfinder's agent, and holds the start (and the goal, when the goal names one
    /// position), otherwise [`Pathfinder::search`] on the world, which also reports every
    /// error of a malformed query. Over the graph, the cost is the same as on the world; the
    /// route may differ between routes of equal cost, and so may the expansions.
    ///
    /// # Errors
    /// As [`Pathfinder::search`].
    pub fn search<W, G>(
        &self,
        pathfinder: &mut Pathfinder,
        graph_search: &mut GraphSearch,
        world: &W,
        start: IVec3,
        goal: &G,
        options: &SearchOptions,
    ) -> Result<SearchResult>
    where
        W: VersionedWorld + ?Sized,
        G: Goal + ?Sized,
    {
        if let Some(graph) = self.current_graph(world)
            && graph.agent() == pathfinder.agent()
            && graph.node(start).is_some()
            && goal
                .exact_target()
                .is_none_or(|target| graph.node(target).is_some())
        {
            if let Some(index) = &self.index
                && let Some(answer) =
                    index_answer(index, pathfinder.agent(), world, start, goal, options)
            {
                return Ok(answer);
            }
            return graph_search.search(graph, start, goal, options);
        }
        indexed_search(pathfinder, self.index.as_ref(), world, start, goal, options)
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
    if let Some(index) = index
        && let Some(answer) = index_answer(index, pathfinder.agent(), world, start, goal, options)
    {
        return Ok(answer);
    }
    pathfinder.search(world, start, goal, options)
}

/// The index's answer to a query, when it proves the goal unreachable and the budgets are
/// valid (see [`indexed_search`]).
fn index_answer<W, G>(
    index: &ReachIndex,
    agent: &Agent,
    world: &W,
    start: IVec3,
    goal: &G,
    options: &SearchOptions,
) -> Option<SearchResult>
where
    W: VersionedWorld + ?Sized,
    G: Goal + ?Sized,
{
    let started = Instant::now();
    let target = goal.exact_target()?;
    let budgets_valid =
        options.max_nodes != Some(0) && !options.max_time.is_some_and(|t| t.is_zero());
    (budgets_valid
        && index
            .reach(world, agent, start, target)
            .proves_unreachable())
    .then(|| {
        SearchResult::unreachable(SearchStats {
            expanded: 0,
            generated: 0,
            elapsed: started.elapsed(),
        })
    })
}
