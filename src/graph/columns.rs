//! The id space of a [`NavGraph`]: pages of [`PAGE`] ids. A chunk column the graph holds
//! owns one home page (id `page * 256 + z * 16 + x` is the home slot of the column at local
//! `x`, `z` of the chunk), found through a directory from chunk coordinates; further nodes of
//! a column take ids from shared chain pages, the last of a column's chain holding its home.
//! Every page knows the pages of the 3 x 3 chunk columns around it, so a move across a chunk's seam
//! is a table read; page 0 is a void page of empty home slots that stands for every chunk
//! column not held.

use super::{
    CODE_BITS, CODE_MASK, DEAD, GraphMove, MoveCosts, NO_NODE, NavGraph, NodeId, Pricing,
    SLOT_DIRECTIONS, SLOTS,
};

/// Ids per page: one per column of a 16 x 16 chunk column.
pub(super) const PAGE_SHIFT: u32 = 8;
pub(super) const PAGE: usize = 1 << PAGE_SHIFT;

/// The page every column not held reads as: empty home slots, no chain.
pub(super) const VOID_PAGE: u32 = 0;

/// The mark of the end of a column's chain in `next` (see [`NavGraph`]): the last node of a
/// chain holds this bit and the column's home, so a chained node finds its home by walking
/// down its chain (no array of homes, 4 bytes per chained id less); a home slot without a
/// chain and an id in no column hold the bit alone (home 0, the void page's first: a
/// harmless answer for an id that is not live). Ids stay below it (see `take_page`).
pub(super) const CHAIN_END: NodeId = 1 << 31;

/// What a page holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PageKind {
    /// The void page, or a page given back by an unloaded chunk column: no live id.
    Void,
    /// The home slots of one chunk column.
    Home,
    /// Further nodes of any columns.
    Chain,
}

/// One page of ids.
#[derive(Debug, Clone, Copy)]
pub(super) struct Page {
    pub(super) kind: PageKind,
    /// A home page's chunk coordinates.
    pub(super) chunk: (i32, i32),
    /// The local x and z (relative to the graph's origin) of a home page's first column.
    pub(super) x: i32,
    pub(super) z: i32,
    /// The pages of the chunk columns around a home page, at `(dx + 1) + 3 (dz + 1)` (the
    /// centre is the page itself); [`VOID_PAGE`] for a chunk column not held.
    pub(super) around: [u32; 9],
}

impl Page {
    pub(super) const VOID: Self = Self {
        kind: PageKind::Void,
        chunk: (0, 0),
        x: 0,
        z: 0,
        around: [VOID_PAGE; 9],
    };
}

/// The id offset `dx + 16 dz` of each move slot's column from a column inside a chunk (not on
/// its edge), by slot (padded to 16: ladders and padding stay in the column).
const INNER_OFFSETS: [isize; 16] = inner_offsets();

/// Per slot (padded to 16: ladders and padding stay in the column, the centre), the column
/// of its direction among the 3 x 3 around: `(dx + 1) + 3 (dz + 1)`.
const SLOT_CELL: [usize; 16] = slot_cells();

const fn slot_cells() -> [usize; 16] {
    let mut cells = [4; 16];
    let mut slot = 0;
    while slot < super::SLOTS {
        let d = super::SLOT_DIRECTIONS[slot];
        cells[slot] = ((d.x + 1) + 3 * (d.z + 1)) as usize;
        slot += 1;
    }
    cells
}

/// Per place of a column in its chunk, `xc + 3 zc` (`xc` 0 at x 0, 2 at x 15, else 1; `zc`
/// likewise), the bits of a moves word whose slots lead out of the chunk: none inside.
const LEAVING: [u64; 9] = leaving_masks();

const fn leaving_masks() -> [u64; 9] {
    let mut masks = [0; 9];
    let mut place = 0;
    while place < 9 {
        let (xc, zc) = ((place % 3) as i32 - 1, (place / 3) as i32 - 1);
        let mut slot = 0;
        while slot < super::SLOTS {
            let d = super::SLOT_DIRECTIONS[slot];
            if (xc != 0 && d.x == xc) || (zc != 0 && d.z == zc) {
                masks[place] |= super::CODE_MASK << (slot as u32 * super::CODE_BITS);
            }
            slot += 1;
        }
        place += 1;
    }
    masks
}

const fn inner_offsets() -> [isize; 16] {
    let mut offsets = [0; 16];
    let mut slot = 0;
    while slot < super::SLOTS {
        let d = super::SLOT_DIRECTIONS[slot];
        offsets[slot] = (d.x + 16 * d.z) as isize;
        slot += 1;
    }
    offsets
}

impl NavGraph {
    /// The home id of the column of node `id`: itself for a home slot, else remembered.
    #[expect(
        clippy::inline_always,
        reason = "read for every node a graph search pops or expands"
    )]
    #[inline(always)]
    pub(crate) fn home_of(&self, id: NodeId) -> NodeId {
        match self.pages[(id >> PAGE_SHIFT) as usize].kind {
            PageKind::Chain => self.chain_home(id),
            _ => id,
        }
    }

    /// The home of the chained node `id`: what the end of its chain holds.
    fn chain_home(&self, mut id: NodeId) -> NodeId {
        loop {
            let next = self.next[id as usize];
            if next & CHAIN_END != 0 {
                return next & !CHAIN_END;
            }
            id = next;
        }
    }

    /// The local x and z (relative to the graph's origin) of the column whose home is `home`.
    #[expect(
        clippy::inline_always,
        reason = "read for every node a graph search pops"
    )]
    #[inline(always)]
    pub(crate) fn home_xz(&self, home: NodeId) -> (i32, i32) {
        let page = &self.pages[(home >> PAGE_SHIFT) as usize];
        let local = home as i32 & (PAGE as i32 - 1);
        (page.x + (local & 15), page.z + (local >> 4))
    }

    /// The home id of the column `dx`, `dz` (each -1, 0 or 1) from the column whose home is
    /// `home`: a void home slot when that column's chunk is not held.
    #[inline]
    pub(crate) fn home_toward(&self, home: NodeId, dx: i32, dz: i32) -> NodeId {
        let local = home as i32 & (PAGE as i32 - 1);
        let (x, z) = ((local & 15) + dx, (local >> 4) + dz);
        let page = &self.pages[(home >> PAGE_SHIFT) as usize];
        let to = page.around[((x >> 4) + 1 + 3 * ((z >> 4) + 1)) as usize];
        (to << PAGE_SHIFT) | ((z & 15) << 4 | (x & 15)) as NodeId
    }

    /// The home ids of the columns of each move slot from the column whose home is `home`
    /// (ladders and padding: the column itself): fixed offsets inside a chunk, else through
    /// the pages of the chunk columns around.
    #[expect(
        clippy::inline_always,
        reason = "called once per expansion of the graph's A*: the path inside a chunk is a few adds, kept in the expansion's loop, the rarer path on a chunk's edge is out of line"
    )]
    #[inline(always)]
    pub(crate) fn around(&self, home: NodeId) -> [usize; 16] {
        let home = home as usize;
        let local = home & (PAGE - 1);
        let (x, z) = (local & 15, local >> 4);
        if x.wrapping_sub(1) < 14 && z.wrapping_sub(1) < 14 {
            return std::array::from_fn(|slot| home.wrapping_add_signed(INNER_OFFSETS[slot]));
        }
        self.around_edge(home, x, z)
    }

    /// [`NavGraph::around`] for a column on its chunk's edge (`x`, `z` inside the chunk).
    #[inline]
    fn around_edge(&self, home: usize, x: usize, z: usize) -> [usize; 16] {
        let pages = &self.pages[home >> PAGE_SHIFT].around;
        // The masks tell the compiler `x`, `z` < 16, so the page indexes below (at most
        // 2 + 3 * 2) need no bounds checks.
        let (x, z) = (x & 15, z & 15);
        // The columns one before, at and one after `x` (and `z`): which chunk (0 for the one
        // before, 1 for this one, 2 for the next) and where inside it.
        let chunk_x = [(x + 15) >> 4, 1, (x + 17) >> 4];
        let local_x = [(x + 15) & 15, x, (x + 1) & 15];
        let chunk_z = [(z + 15) >> 4, 1, (z + 17) >> 4];
        let local_z = [(z + 15) & 15, z, (z + 1) & 15];
        // The 3 x 3 columns around, at `(dx + 1) + 3 (dz + 1)`, each found once (rather
        // than per slot: 142 instructions per call before, by callgrind on `compare`).
        let mut cells = [0usize; 9];
        for (j, (&cz, &lz)) in chunk_z.iter().zip(&local_z).enumerate() {
            for (i, (&cx, &lx)) in chunk_x.iter().zip(&local_x).enumerate() {
                cells[i + 3 * j] = ((pages[cx + 3 * cz] as usize) << PAGE_SHIFT) | (lz << 4) | lx;
            }
        }
        std::array::from_fn(|slot| cells[SLOT_CELL[slot]])
    }

    /// Calls `visit(target, cost)` with every move out of node `id` whose target lies in
    /// the same chunk column, priced by `pricing` (which must [`Pricing::fits`] the graph):
    /// the moves of [`NavGraph::for_each_move`] that stay in the chunk, read straight from
    /// the node's moves word. For the hierarchy's cells, which lay out a chunk column's
    /// moves for every edit: the general walk found the target's column through the pages
    /// around, built its feet and priced from the shapes per move (about 1 170 instructions
    /// per node laid out, by callgrind on `long --size 1024 --edits 200`).
    pub(crate) fn for_each_move_in_chunk(
        &self,
        id: NodeId,
        pricing: &Pricing,
        mut visit: impl FnMut(NodeId, u32),
    ) {
        let Some(&record) = self.slots.get(id as usize) else {
            return;
        };
        let home = self.home_of(id);
        let (x, z) = (home as i32 & 15, (home as i32 >> 4) & 15);
        let page = home & !(PAGE as NodeId - 1);
        let y = i32::from(record.y);
        let mut word = record.moves();
        while word != 0 {
            let slot = (word.trailing_zeros() / CODE_BITS) as usize;
            let shift = slot as u32 * CODE_BITS;
            let code = (word >> shift) & CODE_MASK;
            word &= !(CODE_MASK << shift);
            let direction = SLOT_DIRECTIONS[slot];
            let (to_x, to_z) = (x + direction.x, z + direction.z);
            // Negative coordinates wrap to large ones: one test for both edges.
            if (to_x as u32) >= 16 || (to_z as u32) >= 16 {
                continue;
            }
            let step = pricing.step(slot, code);
            let to_y = (y + step.dy) as u16;
            // The column's home slot, then its chain, as `find_in_column`, keeping the
            // target's record: most targets are plain, and their cost is the step's alone
            // without a call to price the target (the build's numbering at 1024, one thread:
            // 0.90 G to 0.69 G instructions).
            let mut target = page | (to_z << 4 | to_x) as NodeId;
            let found = loop {
                let slot = self.slots[target as usize];
                if slot.y == to_y {
                    break Some(slot);
                }
                target = self.next[target as usize];
                if target & CHAIN_END != 0 {
                    break None;
                }
            };
            match found {
                Some(slot) if slot.is_plain() => visit(target, step.base),
                Some(_) => visit(
                    target,
                    step.base
                        .saturating_add(self.entry_cost(target, &pricing.costs)),
                ),
                None => {}
            }
        }
    }

    /// Calls `visit` with every move out of node `id` whose target lies in another chunk
    /// column, priced at `costs`: the moves of [`NavGraph::for_each_move`] that leave the
    /// chunk, in the same order, the slots that stay in it masked off the moves word before
    /// any is decoded. For the abstraction's exits, which want only a border node's
    /// crossings (with `for_each_move`, which decodes and finds every target, the exits took
    /// 0.60 G instructions of a one-thread build at 1024; with this 0.43 G).
    pub(crate) fn for_each_move_out_of_chunk(
        &self,
        id: NodeId,
        costs: &MoveCosts,
        visit: impl FnMut(GraphMove),
    ) {
        let Some(word) = self.slots.get(id as usize).map(|slot| slot.moves()) else {
            return;
        };
        let home = self.home_of(id);
        let local = home as usize & (PAGE - 1);
        let place = |at: usize| usize::from(at != 0) + usize::from(at == 15);
        let bits = word & LEAVING[place(local & 15) + 3 * place(local >> 4)];
        if bits != 0 {
            self.visit_slots(id, home, bits, costs, visit);
        }
    }

    /// Whether node `from` has a move to node `to`, as [`NavGraph::for_each_move`] would list
    /// it: the slots of `from`'s moves word toward `to`'s column, checked for `to`'s height,
    /// with no target found in a column and no move priced. For the abstraction's exits,
    /// which ask it of every two crossings side by side (through `for_each_move`, those
    /// questions took about half of the exits' instructions). Testing all the slots is kept:
    /// a table of the one slot toward `to`'s column (ladders: two) took more, 97 M to 117 M
    /// instructions of its calls in a one-thread build at 1024.
    pub(crate) fn has_move(&self, from: NodeId, to: NodeId) -> bool {
        let (Some(source), Some(target)) =
            (self.slots.get(from as usize), self.slots.get(to as usize))
        else {
            return false;
        };
        if source.y == DEAD || target.y == DEAD {
            return false;
        }
        let (from_x, from_z) = self.home_xz(self.home_of(from));
        let (to_x, to_z) = self.home_xz(self.home_of(to));
        let dy = i32::from(target.y) - i32::from(source.y);
        let word = source.moves();
        (0..SLOTS).any(|slot| {
            let direction = SLOT_DIRECTIONS[slot];
            let code = (word >> (slot as u32 * CODE_BITS)) & CODE_MASK;
            direction.x == to_x - from_x
                && direction.z == to_z - from_z
                && code != 0
                && self.shapes[code as usize - 1].dy == dy
        })
    }

    /// The home page of chunk column `(chunk_x, chunk_z)`, if the graph holds it.
    #[inline]
    pub(super) fn page_of_chunk(&self, chunk: (i32, i32)) -> Option<u32> {
        self.directory.get(&chunk).copied()
    }

    /// The home id of the column at local `x`, `z` (relative to the origin), if its chunk
    /// column is held.
    #[inline]
    pub(super) fn home_at(&self, x: i32, z: i32) -> Option<NodeId> {
        let (wx, wz) = (self.origin.x + x, self.origin.z + z);
        let page = self.page_of_chunk((wx >> 4, wz >> 4))?;
        Some((page << PAGE_SHIFT) | ((wz & 15) << 4 | (wx & 15)) as NodeId)
    }

    /// The node after the home slot `home` in its column's chain at stored height `y`, or
    /// [`NO_NODE`]: [`NavGraph::find_in_column`] when the home slot is not the node.
    #[inline(never)]
    pub(crate) fn find_in_chain(&self, home: usize, y: u16) -> NodeId {
        let mut id = self.next[home];
        while id & CHAIN_END == 0 {
            if self.slots[id as usize].y == y {
                return id;
            }
            id = self.next[id as usize];
        }
        NO_NODE
    }

    /// The node of the column whose home is `home` at stored height `y` (never
    /// [`DEAD`]), or [`NO_NODE`]: the home slot first, then its chain.
    #[inline]
    pub(crate) fn find_in_column(&self, home: usize, y: u16) -> NodeId {
        let mut id = home as NodeId;
        loop {
            let slot = &self.slots[id as usize];
            if slot.y == y {
                return id;
            }
            id = self.next[id as usize];
            if id & CHAIN_END != 0 {
                return NO_NODE;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use crate::graph::{NavGraph, Pricing};
    use crate::moves::agent::{Agent, MoveCosts};
    use crate::testing::{random_block, xorshift};
    use crate::world::{Block, Bounds, ChunkedWorld};

    /// On random worlds across chunk seams (negative coordinates, caves, water, lava, slow
    /// floors, ladders) and at two costs, a node's moves in its chunk column are exactly its
    /// moves of `for_each_move` whose target is in the same chunk column, at the same prices,
    /// and its moves out of it those whose target is in another; and `has_move` answers for
    /// the nodes around as `for_each_move` does.
    #[test]
    fn moves_in_chunk_are_the_moves_that_stay_in_it() {
        let mut random = xorshift(0x2545_f491_4f6c_dd1d_u64);
        let mut next = move |below: u64| random() % below;
        let dear = MoveCosts {
            diagonal: 17,
            ascend: 9,
            jump: 4,
            ..MoveCosts::default()
        };
        for _ in 0..6 {
            let min = IVec3::new(next(40) as i32 - 30, -8, next(40) as i32 - 30);
            let size = IVec3::new(40, 10, 40);
            let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
            world
                .fill(
                    min,
                    min + IVec3::new(size.x - 1, 0, size.z - 1),
                    Block::Solid,
                )
                .unwrap();
            for _ in 0..2_000 {
                let cell = min + IVec3::new(next(40) as i32, 1 + next(9) as i32, next(40) as i32);
                world.set(cell, random_block(next(16))).unwrap();
            }
            let graph = NavGraph::compile(&world, &Agent::default()).unwrap();
            for costs in [MoveCosts::default(), dear] {
                let pricing = Pricing::new(&graph, costs);
                let mut chained = 0;
                let mut crossing = 0;
                for id in graph.nodes() {
                    let feet = graph.feet(id);
                    let chunk = (feet.x >> 4, feet.z >> 4);
                    let mut want = Vec::new();
                    graph.for_each_move(id, &costs, |step| {
                        if (step.feet.x >> 4, step.feet.z >> 4) == chunk {
                            want.push((step.node, step.cost));
                        }
                    });
                    let mut got = Vec::new();
                    graph.for_each_move_in_chunk(id, &pricing, |target, cost| {
                        got.push((target, cost));
                    });
                    assert_eq!(got, want, "node {id} at {feet}");
                    let mut leaving = Vec::new();
                    graph.for_each_move(id, &costs, |step| {
                        if (step.feet.x >> 4, step.feet.z >> 4) != chunk {
                            leaving.push(step);
                        }
                    });
                    let mut out = Vec::new();
                    graph.for_each_move_out_of_chunk(id, &costs, |step| out.push(step));
                    assert_eq!(out, leaving, "node {id} at {feet}");
                    crossing += leaving.len();
                    // `has_move` agrees with `for_each_move` on every target and on the
                    // nodes of the columns around (at any height), which no move may reach.
                    let mut targets = Vec::new();
                    graph.for_each_move(id, &costs, |step| targets.push(step.node));
                    for dx in -1..=1 {
                        for dz in -1..=1 {
                            for dy in -4..=4 {
                                if let Some(other) = graph.node(feet + IVec3::new(dx, dy, dz)) {
                                    assert_eq!(
                                        graph.has_move(id, other),
                                        targets.contains(&other),
                                        "node {id} at {feet} to {other}"
                                    );
                                }
                            }
                        }
                    }
                    chained += usize::from(graph.home_of(id) != id);
                }
                assert!(chained > 0, "the worlds have columns of more than one node");
                assert!(crossing > 0, "the worlds have moves across chunk seams");
            }
        }
    }
}
