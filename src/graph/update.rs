//! Local updates: after block changes, re-derive only the nodes and moves the changed cells
//! can affect.
//!
//! Which nodes a changed cell `p` can affect follows from what the neighbour generator reads:
//!
//! - whether `(x, y, z)` is a valid feet position reads the cells `y - 1 ..= y + height - 1`
//!   of its column, so the node set changes only in `p`'s column, for feet `y` in
//!   `p.y - height + 1 ..= p.y + 1`;
//! - the moves out of a node at feet `y` read the 9 columns around it (its own and the 8
//!   neighbours) from `y - max_drop - 1` to `y + height + max_step_up - 1` (the generator's
//!   window), so they change only for nodes in the 9 columns around `p` with feet `y` in
//!   `p.y - height - max_step_up + 1 ..= p.y + max_drop + 1`;
//! - the terms a node charges for entering it (its [`TerrainFlags`](crate::world::TerrainFlags) and
//!   [`VoxelWorld::extra_cost`]) read the cells within one block of its feet (lava in the
//!   3 x 3 x 3 cube around them), so they change only for nodes within one block of `p`.
//!
//! Each changed cell counts as a change of the cells just below and above it too, since a
//! block may decide more than its own cell (a fence blocks the cell above it). A world whose
//! [`VoxelWorld::extra_cost`] depends on cells further away must compile a new graph instead. The property test `tests/graph.rs` checks after every one of hundreds of
//! random block changes that the updated graph equals a fresh compile, move for move.

use ahash::AHashMap;
use glam::IVec3;

use super::{DEAD, NO_NODE, NavGraph, NodeId};
use crate::error::{Error, Result};
use crate::moves::agent::MoveCosts;
use crate::world::VoxelWorld;
use crate::world::chunked::Changes;

/// What a [`NavGraph::update`] changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphUpdate {
    /// Nodes that are new valid feet positions, with their new ids.
    pub added: Vec<NodeId>,
    /// Ids of nodes that are no longer valid feet positions. A removed id is not reused by
    /// the same update; a later update may give it to a new node.
    pub removed: Vec<NodeId>,
    /// Live nodes (added ones included) whose moves out may differ from before: a move
    /// appeared or disappeared, or the cost of one changed (because the terrain or extra
    /// cost of its target changed). Sorted, without repeats.
    pub changed: Vec<NodeId>,
}

impl GraphUpdate {
    /// Whether the graph did not change at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// A range of local feet heights, inclusive.
type Span = (i32, i32);

/// Local x and z of a column.
type Column = (i32, i32);

fn widen(map: &mut AHashMap<Column, Span>, column: Column, low: i32, high: i32) {
    map.entry(column)
        .and_modify(|span| *span = (span.0.min(low), span.1.max(high)))
        .or_insert((low, high));
}

impl NavGraph {
    /// Updates the graph after the blocks in `changes` (from
    /// [`ChunkedWorld::take_changes`](crate::ChunkedWorld::take_changes)) changed in
    /// `world`. See [`NavGraph::update`].
    ///
    /// # Errors
    /// As [`NavGraph::update`].
    pub fn apply_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<GraphUpdate> {
        self.update(world, changes.positions())
    }

    /// Updates the graph after the cells `changed` of `world` changed (any world: list every
    /// cell whose passability, standability, terrain or extra cost may differ), re-deriving
    /// only the nodes and moves those cells can affect (see [local updates](crate::graph#local-updates)).
    ///
    /// Ids of nodes that stay valid do not change. Cells outside the graph's bounds are
    /// ignored; listing a cell that did not change is harmless.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `world`'s bounds are not the ones the graph was compiled
    /// with; [`Error::GraphTooLarge`] as in [`NavGraph::compile`] (too many nodes, or moves
    /// the graph cannot store).
    pub fn update<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changed: impl IntoIterator<Item = IVec3>,
    ) -> Result<GraphUpdate> {
        if world.bounds() != Some(self.bounds) {
            return Err(Error::InvalidSetting(format!(
                "the world's bounds are {:?}, the graph was compiled for {:?}: compile a new graph",
                world.bounds(),
                self.bounds
            )));
        }
        let size = self.bounds.size();
        let agent = self.agent;
        let (height, step, drop) = (
            agent.height as i32,
            agent.max_step_up as i32,
            agent.fall_reach() as i32,
        );
        let mut rescan: AHashMap<Column, Span> = AHashMap::new();
        let mut rederive: AHashMap<Column, Span> = AHashMap::new();
        for cell in changed {
            if !self.bounds.contains(cell) {
                continue;
            }
            let p = cell - self.bounds.min;
            // A block may decide more than its own cell (a fence blocks the cell above it
            // too), so each change counts as a change of the cells just below and above.
            let (low, high) = (p.y - 1, p.y + 1);
            widen(&mut rescan, (p.x, p.z), low - height + 1, high + 1);
            for dz in -1..=1 {
                for dx in -1..=1 {
                    let (x, z) = (p.x + dx, p.z + dz);
                    if x < 0 || z < 0 || x >= size.x || z >= size.z {
                        continue;
                    }
                    widen(
                        &mut rederive,
                        (x, z),
                        (low - height - step + 1).min(low - 1),
                        (high + drop + 1).max(high + 1),
                    );
                }
            }
        }

        let mut update = GraphUpdate::default();
        let mut valid = Vec::new();
        for (&column, &(low, high)) in &rescan {
            self.rescan_column(world, column, low, high, &mut valid, &mut update)?;
        }

        let mut entry_changed = Vec::new();
        for (&(x, z), &(low, high)) in &rederive {
            let mut id = self.column_index(x, z) as NodeId;
            while id != NO_NODE {
                let before = self.slots[id as usize];
                if before.y != DEAD && (low..=high).contains(&i32::from(before.y)) {
                    let extra = self.extra_cost(id);
                    self.derive_node(world, id)?;
                    let after = self.slots[id as usize];
                    if after.out != before.out {
                        update.changed.push(id);
                    }
                    if (after.terrain, self.extra_cost(id)) != (before.terrain, extra) {
                        entry_changed.push(id);
                    }
                }
                id = before.next;
            }
        }
        // Moves into a node whose entry terms changed cost something else now. Read after
        // every node was re-derived, so the sources' moves are current.
        let costs = MoveCosts::default();
        for id in entry_changed {
            let changed = &mut update.changed;
            self.for_each_incoming(id, &costs, |step| changed.push(step.node));
        }
        update.changed.extend_from_slice(&update.added);
        update.changed.sort_unstable();
        update.changed.dedup();
        let homes = self.homes;
        self.free
            .extend(update.removed.iter().filter(|&&id| id as usize >= homes));
        Ok(update)
    }

    /// Makes the nodes of `column` with local feet heights `low ..= high` the valid feet
    /// positions there: removes the others (their ids go to `update.removed`, not yet to the
    /// free list) and adds the missing ones. A removed home slot stays at the head of its
    /// chain, empty; a later update (not this one) may fill it again.
    fn rescan_column<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        (x, z): Column,
        low: i32,
        high: i32,
        valid: &mut Vec<i32>,
        update: &mut GraphUpdate,
    ) -> Result<()> {
        let column = self.column_index(x, z);
        self.valid_feet_in_column(world, x, z, low, high, valid);

        // Remove the nodes in the span that are no longer valid.
        let home = column as NodeId;
        let mut home_emptied = false;
        let mut previous = NO_NODE;
        let mut id = home;
        while id != NO_NODE {
            let slot = &mut self.slots[id as usize];
            let next = slot.next;
            let y = i32::from(slot.y);
            if slot.y != DEAD && (low..=high).contains(&y) && valid.binary_search(&y).is_err() {
                slot.y = DEAD;
                self.slots[id as usize].out = 0;
                if id == home {
                    home_emptied = true;
                    previous = id;
                } else {
                    self.slots[id as usize].next = NO_NODE;
                    self.slots[previous as usize].next = next;
                }
                self.live -= 1;
                update.removed.push(id);
            } else {
                previous = id;
            }
            id = next;
        }

        // Add the valid ones that are missing: into the empty home slot if it was empty before
        // this update (a removed id is not handed out again by the same update), else into
        // the chain after it, keeping the chain ordered from the top down.
        for &y in valid.iter() {
            if self.find_in_column(column, y as u16) != NO_NODE {
                continue;
            }
            if self.slots[column].y == DEAD && !home_emptied {
                self.fill_home(column, y)?;
                update.added.push(home);
                continue;
            }
            let new = self.push_node(x, y, z)?;
            let mut previous = home;
            let mut id = self.slots[column].next;
            while id != NO_NODE && i32::from(self.slots[id as usize].y) > y {
                previous = id;
                id = self.slots[id as usize].next;
            }
            self.slots[new as usize].next = id;
            self.slots[previous as usize].next = new;
            update.added.push(new);
        }
        Ok(())
    }
}
