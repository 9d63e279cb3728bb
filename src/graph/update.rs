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

use super::columns::{CHAIN_END, PAGE, PAGE_SHIFT, Page, PageKind, VOID_PAGE};
use super::slot::Slot;
use super::{DEAD, NO_NODE, NavGraph, NodeId};
use crate::error::{Error, Result};
use crate::moves::agent::MoveCosts;
use crate::world::chunked::{ChangeSpan, Changes};
use crate::world::{VoxelWorld, WorldId};

/// What a [`NavGraph::update`] changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphUpdate {
    /// Nodes that are new valid feet positions, with their new ids.
    pub added: Vec<NodeId>,
    /// Ids of nodes that are no longer valid feet positions. A removed id is not reused by
    /// the same update; a later update may give it to a new node.
    pub removed: Vec<NodeId>,
    /// The feet position each removed node had, in the order of `removed` (the graph
    /// forgets it with the node): what structures keyed by position give back.
    pub removed_feet: Vec<IVec3>,
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

/// A range of stored feet heights, inclusive.
type Span = (i32, i32);

fn widen(map: &mut AHashMap<NodeId, Span>, home: NodeId, low: i32, high: i32) {
    map.entry(home)
        .and_modify(|span| *span = (span.0.min(low), span.1.max(high)))
        .or_insert((low, high));
}

impl NavGraph {
    /// Updates the graph after the blocks in `changes` (from
    /// [`ChunkedWorld::take_changes`](crate::ChunkedWorld::take_changes)) changed in
    /// `world`. See [`NavGraph::update`].
    ///
    /// The changes say which world reported them and which versions they span: they must come
    /// from the graph's world and cover every change since the version the graph describes
    /// (take them after each update, or since before the compile). The graph then describes
    /// the version they were taken at.
    ///
    /// # Errors
    /// As [`NavGraph::update`]; [`Error::StaleGraph`] when the changes start after the
    /// version the graph describes (some changes were never reported), [`Error::OtherWorld`]
    /// for changes of another world.
    pub fn apply_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<GraphUpdate> {
        let columns: Vec<(i32, i32)> = changes
            .loaded_columns
            .iter()
            .chain(&changes.unloaded_columns)
            .copied()
            .collect();
        let Some(span) = changes.span else {
            // Tracking was off: no columns either.
            return self.update(world, changes.positions());
        };
        self.check_update(world)?;
        let Some(built) = self.world_version() else {
            return self.update_cells(world, changes.positions(), &columns, None);
        };
        self.check_span(&span, built)?;
        self.update_cells(
            world,
            changes.positions(),
            &columns,
            Some(built.max(span.until)),
        )
    }

    /// [`Error::OtherWorld`] for changes of another world than the graph's,
    /// [`Error::StaleGraph`] for changes that start after version `built`.
    fn check_span(&self, span: &ChangeSpan, built: u64) -> Result<()> {
        let world = self.source.as_ref().map(|source| source.watch.id());
        if world != Some(span.world) {
            return Err(Error::OtherWorld {
                what: "walk graph (given the changes of another world)",
                built: world.map_or(0, WorldId::get),
                given: Some(span.world.get()),
            });
        }
        if span.since > built {
            return Err(Error::StaleGraph {
                built,
                now: span.until,
            });
        }
        Ok(())
    }

    /// Updates the graph after the cells `changed` of `world` changed (any world: list every
    /// cell whose passability, standability, terrain or extra cost may differ), re-deriving
    /// only the nodes and moves those cells can affect (see [local updates](crate::graph#local-updates)).
    ///
    /// Ids of nodes that stay valid do not change. Cells outside the graph's bounds are
    /// ignored; listing a cell that did not change is harmless. A list that misses a change
    /// cannot be told from a complete one, except an empty list for a world that changed (when
    /// the world has a [`VoxelWorld::watch`]), which is refused; prefer
    /// [`NavGraph::apply_changes`], whose changes say what they cover.
    ///
    /// An update that fails part way leaves the graph refusing to answer
    /// ([`Error::GraphBroken`]) until compiled again.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when `world`'s bounds are not the ones the graph was compiled
    /// with; [`Error::OtherWorld`] when `world` is not the graph's world; [`Error::StaleGraph`]
    /// for an empty list when the world changed since the version the graph describes;
    /// [`Error::GraphBroken`] after an earlier update failed; [`Error::GraphTooLarge`] as in
    /// [`NavGraph::compile`] (too many nodes, or moves the graph cannot store), after which
    /// the graph is broken.
    pub fn update<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changed: impl IntoIterator<Item = IVec3>,
    ) -> Result<GraphUpdate> {
        self.check_update(world)?;
        let mut changed = changed.into_iter().peekable();
        let now = world.watch().map(|watch| watch.version());
        if let (Some(built), Some(now)) = (self.world_version(), now)
            && built != now
            && changed.peek().is_none()
        {
            return Err(Error::StaleGraph { built, now });
        }
        self.update_cells(world, changed, &[], now)
    }

    /// What every update checks before it changes anything: the graph is not broken, and
    /// `world` is its world, with its height (its x and z bounds may grow as columns load).
    fn check_update<W: VoxelWorld + ?Sized>(&self, world: &W) -> Result<()> {
        if let Some(cause) = &self.broken {
            return Err(Error::GraphBroken(cause.clone()));
        }
        let same_height = world.bounds().is_some_and(|bounds| {
            (bounds.min.y, bounds.max.y) == (self.bounds.min.y, self.bounds.max.y)
        });
        if !same_height {
            return Err(Error::InvalidSetting(format!(
                "the world's bounds are {:?}, the graph was compiled for the height of {:?}: \
                 compile a new graph",
                world.bounds(),
                self.bounds
            )));
        }
        self.check_world(world, "walk graph")
    }

    /// The update itself, checked already; on success the graph describes version `version`
    /// (when known), on failure it is broken.
    fn update_cells<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changed: impl Iterator<Item = IVec3>,
        columns: &[(i32, i32)],
        version: Option<u64>,
    ) -> Result<GraphUpdate> {
        match self.rederive(world, changed, columns) {
            Ok(update) => {
                if let (Some(source), Some(version)) = (self.source.as_mut(), version) {
                    source.version = version;
                }
                Ok(update)
            }
            Err(error) => {
                self.broken = Some(error.to_string());
                Err(error)
            }
        }
    }

    /// Re-derives what the cells `changed` and the chunk columns `columns` (loaded or
    /// unloaded: every cell of theirs changed) can affect.
    fn rederive<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changed: impl Iterator<Item = IVec3>,
        columns: &[(i32, i32)],
    ) -> Result<GraphUpdate> {
        if let Some(bounds) = world.bounds() {
            self.bounds = bounds;
        }
        let agent = self.agent;
        let (height, width, step, drop) = (
            agent.height as i32,
            agent.width as i32,
            agent.max_step_up as i32,
            agent.fall_reach() as i32,
        );
        let mut update = GraphUpdate::default();
        let mut rescan: AHashMap<NodeId, Span> = AHashMap::new();
        let mut rederive: AHashMap<NodeId, Span> = AHashMap::new();
        let whole = (-1, i32::from(DEAD));

        // A loaded or unloaded chunk column: its page is added, rescanned whole or dropped,
        // and every node of the ring of columns around it (the seam) re-derived. Columns
        // first, so that cells of a dropped column find no page below.
        let mut loads: Vec<(i32, i32)> = columns.to_vec();
        loads.sort_unstable();
        loads.dedup();
        let mut touched = Vec::new();
        for &chunk in &loads {
            self.mark_unloaded(world, chunk);
            let present = self.column_present(world, chunk);
            match (self.page_of_chunk(chunk), present) {
                (Some(page), false) => self.drop_page(page, &mut update),
                (None, true) => touched.push(self.add_page(chunk)?),
                (Some(page), true) => touched.push(page),
                (None, false) => {}
            }
        }
        // Cells of columns the graph does not hold yet (a bounded world whose chunk was
        // empty) bring their whole column in.
        // Cells outside the world's bounds have nothing to change (a world of chunk columns
        // holds its loaded columns inside its bounds).
        let bounds = self.bounds;
        let changed: Vec<IVec3> = changed.filter(|&cell| bounds.contains(cell)).collect();
        for &cell in &changed {
            let chunk = (cell.x >> 4, cell.z >> 4);
            if self.page_of_chunk(chunk).is_none() && self.column_present(world, chunk) {
                touched.push(self.add_page(chunk)?);
            }
        }
        let mut chunks: Vec<(i32, i32)> = touched
            .iter()
            .map(|&page| self.pages[page as usize].chunk)
            .chain(loads.iter().copied())
            .collect();
        chunks.sort_unstable();
        chunks.dedup();
        for chunk in chunks {
            let held = self.page_of_chunk(chunk).is_some();
            let (x0, z0) = (chunk.0 * 16 - self.origin.x, chunk.1 * 16 - self.origin.z);
            for z in z0 - 1..=z0 + 16 {
                for x in x0 - 1..=x0 + 16 {
                    let Some(home) = self.home_at(x, z) else {
                        continue;
                    };
                    let inner = (x0..x0 + 16).contains(&x) && (z0..z0 + 16).contains(&z);
                    if inner && held {
                        widen(&mut rescan, home, whole.0, whole.1);
                    }
                    widen(&mut rederive, home, whole.0, whole.1);
                }
            }
        }

        for cell in changed {
            // A write into a chunk that was not loaded stores it.
            if self.unloaded.contains(cell) && !world.is_unloaded(cell) {
                self.unloaded.mark(cell, false);
            }
            let p = cell - self.origin;
            // A block may decide more than its own cell (a fence blocks the cell above it
            // too), so each change counts as a change of the cells just below and above.
            let (low, high) = (p.y - 1, p.y + 1);
            // A body `width` wide at feet column (x, z) covers the columns up to x + width - 1
            // and z + width - 1, and its moves read one column beyond on each side.
            for dz in 1 - width..=0 {
                for dx in 1 - width..=0 {
                    if let Some(home) = self.home_at(p.x + dx, p.z + dz) {
                        widen(&mut rescan, home, low - height + 1, high + 1);
                    }
                }
            }
            for dz in -width..=1 {
                for dx in -width..=1 {
                    if let Some(home) = self.home_at(p.x + dx, p.z + dz) {
                        widen(
                            &mut rederive,
                            home,
                            (low - height - step + 1).min(low - 1),
                            (high + drop + 1).max(high + 1),
                        );
                    }
                }
            }
        }

        let mut valid = Vec::new();
        for (&home, &(low, high)) in &rescan {
            self.rescan_column(world, home, low, high, &mut valid, &mut update)?;
        }

        let mut entry_changed = Vec::new();
        for (&home, &(low, high)) in &rederive {
            let mut id = home;
            while id & CHAIN_END == 0 {
                let before = self.slots[id as usize];
                if before.y != DEAD && (low..=high).contains(&i32::from(before.y)) {
                    let entry = (self.slot_terrain(id, before), self.extra_cost(id));
                    self.derive_node(world, id)?;
                    let after = self.slots[id as usize];
                    if after.moves() != before.moves() {
                        update.changed.push(id);
                    }
                    if (self.slot_terrain(id, after), self.extra_cost(id)) != entry {
                        entry_changed.push(id);
                    }
                }
                id = self.next[id as usize];
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
        let chained: Vec<NodeId> = update
            .removed
            .iter()
            .copied()
            .filter(|&id| {
                matches!(
                    self.pages[(id >> PAGE_SHIFT) as usize].kind,
                    PageKind::Chain
                )
            })
            .collect();
        self.free.extend(chained);
        self.free_pages.append(&mut self.freed_pages);
        self.free_pages.sort_unstable_by(|a, b| b.cmp(a));
        Ok(update)
    }

    /// Marks in the unloaded chunks of the compile's bounds whether chunk column `chunk` is
    /// loaded now.
    fn mark_unloaded<W: VoxelWorld + ?Sized>(&mut self, world: &W, chunk: (i32, i32)) {
        let lo = IVec3::new(chunk.0 * 16, self.bounds.min.y, chunk.1 * 16);
        let (bottom, top) = (self.bounds.min, self.bounds.max - IVec3::ONE);
        if bottom.y > top.y {
            return;
        }
        for chunk_y in bottom.y.div_euclid(16)..=top.y.div_euclid(16) {
            // A cell of the chunk inside the height stands for the chunk.
            let cell = IVec3::new(lo.x, (chunk_y * 16).clamp(bottom.y, top.y), lo.z);
            self.unloaded.mark(cell, world.is_unloaded(cell));
        }
    }

    /// Removes every node of the home page `page` (their ids go to `update.removed`), gives
    /// the page back (free from the next update on) and unlinks it from the directory and
    /// the pages around it.
    fn drop_page(&mut self, page: u32, update: &mut GraphUpdate) {
        for local in 0..PAGE as NodeId {
            let mut id = (page << PAGE_SHIFT) | local;
            while id & CHAIN_END == 0 {
                let slot = self.slots[id as usize];
                if slot.y != DEAD {
                    self.live -= 1;
                    update.removed.push(id);
                    let (x, z) = self.home_xz((page << PAGE_SHIFT) | local);
                    update
                        .removed_feet
                        .push(self.origin + IVec3::new(x, i32::from(slot.y), z));
                }
                let next = self.next[id as usize];
                self.slots[id as usize] = Slot::EMPTY;
                self.next[id as usize] = CHAIN_END;
                self.forget_terrain(id);
                if let Some(extra) = self.extra.get_mut(id as usize) {
                    *extra = 0;
                }
                id = next;
            }
        }
        let Page { chunk, around, .. } = self.pages[page as usize];
        for (at, &other) in around.iter().enumerate() {
            if other != VOID_PAGE && other != page {
                self.pages[other as usize].around[8 - at] = VOID_PAGE;
            }
        }
        self.pages[page as usize] = Page::VOID;
        self.directory.remove(&chunk);
        self.freed_pages.push(page);
    }

    /// Makes the nodes of the column whose home is `home` with stored feet heights
    /// `low ..= high` the valid feet
    /// positions there: removes the others (their ids go to `update.removed`, not yet to the
    /// free list) and adds the missing ones. A removed home slot stays at the head of its
    /// chain, empty; a later update (not this one) may fill it again.
    fn rescan_column<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        home: NodeId,
        low: i32,
        high: i32,
        valid: &mut Vec<i32>,
        update: &mut GraphUpdate,
    ) -> Result<()> {
        let column = home as usize;
        let (x, z) = self.home_xz(home);
        self.valid_feet_in_column(world, x, z, low, high, valid);

        // Remove the nodes in the span that are no longer valid.
        let mut home_emptied = false;
        let mut previous = NO_NODE;
        let mut id = home;
        while id & CHAIN_END == 0 {
            let next = self.next[id as usize];
            let slot = &mut self.slots[id as usize];
            let y = i32::from(slot.y);
            if slot.y != DEAD && (low..=high).contains(&y) && valid.binary_search(&y).is_err() {
                slot.y = DEAD;
                slot.out = 0;
                self.forget_terrain(id);
                if id == home {
                    home_emptied = true;
                    previous = id;
                } else {
                    self.next[id as usize] = CHAIN_END;
                    self.next[previous as usize] = next;
                }
                self.live -= 1;
                update.removed.push(id);
                update.removed_feet.push(self.origin + IVec3::new(x, y, z));
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
            let new = self.push_node(y)?;
            let mut previous = home;
            let mut id = self.next[column];
            while id & CHAIN_END == 0 && i32::from(self.slots[id as usize].y) > y {
                previous = id;
                id = self.next[id as usize];
            }
            // The end of the chain holds the home (a home slot's own end mark may not).
            self.next[new as usize] = if id & CHAIN_END == 0 {
                id
            } else {
                home | CHAIN_END
            };
            self.next[previous as usize] = new;
            update.added.push(new);
        }
        Ok(())
    }
}
