//! The node table: from a feet position to its node index.
//!
//! Two stores. A bounded world of at most [`FLAT_CELLS`] cells (inside the key range) gets a
//! flat array with one slot per cell, indexed with fixed strides: no lookup and no hashing
//! per move. Every other position (unbounded or large worlds, and anything outside the flat
//! box) goes to pages of 16x4x16 cells found through a small hash map of page keys, with the
//! last page used cached: a search touches cells in a few compact regions, so memory stays
//! proportional to the search.
//!
//! Slots are never cleared between searches. Each search numbers its nodes from a new
//! *base*, above every number an earlier search wrote, and a slot holds a node of the current
//! search only when its value minus the base is below the number of nodes made so far. So
//! neither the flat array nor a recycled page is wiped per query (wiping 4 KiB pages of
//! which a flier's search used a few slots each cost 68 instructions per expansion on the
//! Moving AI `Simple` map); only when the numbers run out, after about 4 billion nodes in
//! all, is every slot reset once.

use ahash::AHashMap;
use glam::IVec3;

use crate::moves::fly::FREE_DIRECTIONS;
use crate::world::Bounds;
use crate::world::key::{in_key_range, pack};

/// The most cells of a world given a flat table: 4 bytes per cell, 16 MiB. The Moving AI
/// `Simple` map (105 x 132 x 105) takes 5.8 MiB; a 512 x 256 x 512 world would take 256 MiB,
/// far more than its searches, so it gets pages.
pub(crate) const FLAT_CELLS: u64 = 1 << 22;
/// The most nodes one search may number: the caller stops a search before it makes more.
pub(crate) const MAX_SEARCH_NODES: usize = 1 << 26;

/// Pages are 16 cells wide along x and z and 4 cells tall: searches over terrain touch a
/// thin surface, so tall pages would be mostly empty memory.
const PAGE_SHIFT: i32 = 4;
const PAGE_MASK: i32 = (1 << PAGE_SHIFT) - 1;
const PAGE_Y_SHIFT: i32 = 2;
const PAGE_Y_MASK: i32 = (1 << PAGE_Y_SHIFT) - 1;
const PAGE_CELLS: usize = 1 << (2 * PAGE_SHIFT + PAGE_Y_SHIFT);
/// The value of a slot that never held a node (or was reset): never a node of any search,
/// since bases stay below `u32::MAX - MAX_SEARCH_NODES`.
const NO_NODE: u32 = u32::MAX;

/// The slot offset of each move of [`FREE_DIRECTIONS`] for strides `x`, `z` and 1 along y,
/// padded to 32 entries so that a move number masked to 5 bits needs no bounds check.
const fn neighbour_offsets(x: isize, z: isize) -> [isize; 32] {
    let mut out = [0isize; 32];
    let mut i = 0;
    while i < 26 {
        let d = FREE_DIRECTIONS[i];
        out[i] = d.x as isize * x + d.z as isize * z + d.y as isize;
        i += 1;
    }
    out
}

/// The slot offset of each move of [`FREE_DIRECTIONS`] within a page, for a target in the
/// same page as its start (see [`slot_index`]: x is the highest part, then z, then y).
const PAGE_OFFSETS: [isize; 32] =
    neighbour_offsets(1 << (PAGE_SHIFT + PAGE_Y_SHIFT), 1 << PAGE_Y_SHIFT);

/// The moves of [`FREE_DIRECTIONS`] whose offset along one axis is `-1` and `+1`, for x, y and
/// z: the moves that leave a box from a cell on its low or high face.
const LEAVING: [[u32; 2]; 3] = {
    let mut out = [[0u32; 2]; 3];
    let mut i = 0;
    while i < 26 {
        let d = FREE_DIRECTIONS[i].to_array();
        let mut axis = 0;
        while axis < 3 {
            if d[axis] != 0 {
                out[axis][(d[axis] > 0) as usize] |= 1 << i;
            }
            axis += 1;
        }
        i += 1;
    }
    out
};

/// The moves of [`FREE_DIRECTIONS`] that leave a box from a cell whose coordinate along one
/// axis is `at`, the box spanning `low ..= high` along it.
#[inline]
fn leaving(axis: usize, at: i32, low: i32, high: i32) -> u32 {
    let down = if at == low { LEAVING[axis][0] } else { 0 };
    let up = if at == high { LEAVING[axis][1] } else { 0 };
    down | up
}

/// Where the slots of one position and of its neighbours in the same store lie: those
/// neighbours' slots are at fixed offsets from its own, with no lookup.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Neighbourhood {
    /// Whether the slots are those of the flat array (else of the page `page`).
    flat: bool,
    page: u32,
    slot: usize,
    /// Bit `i` set when the move [`FREE_DIRECTIONS`]`[i]` stays in the same store.
    pub(crate) inside: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct NodeTable {
    /// One slot per cell of `flat_box`, y fastest, then z, then x.
    flat: Vec<u32>,
    /// The cells `flat` covers this search: empty when the world gets pages only.
    flat_box: Bounds,
    /// The flat slot strides along x and z (1 along y).
    flat_strides: (usize, usize),
    /// [`neighbour_offsets`] of the flat strides.
    flat_offsets: [isize; 32],
    pages: Vec<Box<[u32; PAGE_CELLS]>>,
    in_use: usize,
    directory: AHashMap<u64, u32>,
    last_key: u64,
    last_page: u32,
    /// The number of this search's first node: slots hold `base + index`.
    base: u32,
}

#[inline]
fn page_key(p: IVec3) -> u64 {
    pack(IVec3::new(
        p.x >> PAGE_SHIFT,
        p.y >> PAGE_Y_SHIFT,
        p.z >> PAGE_SHIFT,
    ))
}

#[inline]
fn slot_index(p: IVec3) -> usize {
    (((p.x & PAGE_MASK) << (PAGE_SHIFT + PAGE_Y_SHIFT))
        | ((p.z & PAGE_MASK) << PAGE_Y_SHIFT)
        | (p.y & PAGE_Y_MASK)) as usize
}

impl Default for NodeTable {
    fn default() -> Self {
        Self {
            flat: Vec::new(),
            flat_box: Bounds::new(IVec3::ZERO, IVec3::ZERO),
            flat_strides: (0, 0),
            flat_offsets: [0; 32],
            pages: Vec::new(),
            in_use: 0,
            directory: AHashMap::new(),
            // Page coordinates are positions divided by 16 or 4, so their packed key never
            // has all 64 bits set: the cache starts empty.
            last_key: u64::MAX,
            last_page: 0,
            base: 0,
        }
    }
}

impl NodeTable {
    /// Starts a search, the last search having made `previous` nodes: forgets every entry,
    /// keeping the memory. The cells of `flat` (the bounds of the world, or `None` for pages
    /// only) get the flat array when there are at most [`FLAT_CELLS`] of them and they lie
    /// in the key range.
    pub(crate) fn start(&mut self, flat: Option<Bounds>, previous: usize) {
        self.in_use = 0;
        self.directory.clear();
        self.last_key = u64::MAX;
        self.last_page = 0;

        let next = u64::from(self.base) + previous as u64;
        if next + MAX_SEARCH_NODES as u64 >= u64::from(NO_NODE) {
            // The numbers ran out: every slot forgets its node, once per 4 billion nodes.
            self.flat.fill(NO_NODE);
            for page in &mut self.pages {
                page.fill(NO_NODE);
            }
            self.base = 0;
        } else {
            self.base = next as u32;
        }

        let flat_box = flat
            .filter(|b| {
                !b.is_empty()
                    && b.volume() <= FLAT_CELLS
                    && in_key_range(b.min)
                    && in_key_range(b.max - IVec3::ONE)
            })
            .unwrap_or(Bounds::new(IVec3::ZERO, IVec3::ZERO));
        if flat_box != self.flat_box {
            // Slots of another world hold numbers below the base: the array is reused as it is.
            let cells = flat_box.volume() as usize;
            if self.flat.len() < cells {
                self.flat.resize(cells, NO_NODE);
            }
            let size = flat_box.size();
            let strides = (size.y as usize * size.z as usize, size.y as usize);
            self.flat_box = flat_box;
            self.flat_strides = strides;
            self.flat_offsets = neighbour_offsets(strides.0 as isize, strides.1 as isize);
        }
    }

    /// The number slots hold for this search's first node: node `i` is stored as
    /// `base + i`, and a slot value `v` names node `v - base` (wrapping) when that is below
    /// the number of nodes made so far.
    #[inline]
    pub(crate) fn base(&self) -> u32 {
        self.base
    }

    /// The flat slot of `p`, inside the flat box.
    #[inline]
    fn flat_index(&self, p: IVec3) -> usize {
        let d = p - self.flat_box.min;
        d.x as usize * self.flat_strides.0 + d.z as usize * self.flat_strides.1 + d.y as usize
    }

    /// The slot of `p`, created if its page did not exist yet. `p` must be in the key range.
    #[expect(
        clippy::inline_always,
        reason = "called once per generated node; callgrind: 4% fewer instructions per search when inlined"
    )]
    #[inline(always)]
    pub(crate) fn slot(&mut self, p: IVec3) -> &mut u32 {
        if self.flat_box.contains(p) {
            let index = self.flat_index(p);
            return &mut self.flat[index];
        }
        self.page_slot(p)
    }

    /// [`NodeTable::slot`] for a search started without a flat box: the slot of `p` in its
    /// page.
    #[inline]
    pub(crate) fn page_slot(&mut self, p: IVec3) -> &mut u32 {
        debug_assert!(!self.flat_box.contains(p), "{p} has a flat slot");
        self.select_page(p);
        &mut self.pages[self.last_page as usize][slot_index(p)]
    }

    /// Makes the page of `p` the last page used, creating it if needed.
    #[inline]
    fn select_page(&mut self, p: IVec3) {
        let key = page_key(p);
        if key != self.last_key {
            self.last_page = match self.directory.get(&key) {
                Some(&page) => page,
                None => self.new_page(key),
            };
            self.last_key = key;
        }
    }

    /// The store of `p` (its page created if needed) and the neighbours of `p` in it. `p`
    /// must be in the key range. Neither the flat box nor a page straddles the edge of the
    /// key range (page bounds are multiples of the page sides), so a neighbour in the same
    /// store is in the key range too.
    #[inline]
    pub(crate) fn neighbourhood(&mut self, p: IVec3) -> Neighbourhood {
        if self.flat_box.contains(p) {
            let (low, high) = (self.flat_box.min, self.flat_box.max - IVec3::ONE);
            let out = leaving(0, p.x, low.x, high.x)
                | leaving(1, p.y, low.y, high.y)
                | leaving(2, p.z, low.z, high.z);
            return Neighbourhood {
                flat: true,
                page: 0,
                slot: self.flat_index(p),
                inside: !out & ((1 << 26) - 1),
            };
        }
        self.select_page(p);
        let out = leaving(0, p.x & PAGE_MASK, 0, PAGE_MASK)
            | leaving(1, p.y & PAGE_Y_MASK, 0, PAGE_Y_MASK)
            | leaving(2, p.z & PAGE_MASK, 0, PAGE_MASK);
        // Next to a flat box a page may hold cells of the box, whose slots are the flat ones:
        // every neighbour then goes through `slot`. (Only a world whose valid positions lie
        // outside its own bounds gets here.)
        let inside = if self.flat_box.is_empty() {
            !out & ((1 << 26) - 1)
        } else {
            0
        };
        Neighbourhood {
            flat: false,
            page: self.last_page,
            slot: slot_index(p),
            inside,
        }
    }

    /// The slot of the neighbour [`FREE_DIRECTIONS`]`[i]` of the position of `near`, when bit
    /// `i` of `near.inside` is set.
    #[inline]
    pub(crate) fn neighbour_slot(&mut self, near: &Neighbourhood, i: usize) -> &mut u32 {
        if near.flat {
            return &mut self.flat[near.slot.wrapping_add_signed(self.flat_offsets[i & 31])];
        }
        // The neighbour is in the page, so the mask changes nothing; it lets the compiler
        // drop the bounds check.
        let slot = near.slot.wrapping_add_signed(PAGE_OFFSETS[i & 31]) & (PAGE_CELLS - 1);
        &mut self.pages[near.page as usize][slot]
    }

    #[cold]
    fn new_page(&mut self, key: u64) -> u32 {
        let page = self.in_use;
        if page == self.pages.len() {
            self.pages.push(Box::new([NO_NODE; PAGE_CELLS]));
        }
        // A recycled page keeps its slots: they hold numbers of earlier searches.
        self.in_use += 1;
        self.directory.insert(key, page as u32);
        page as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the slot of `p` names one of the `count` nodes made so far.
    fn names_a_node(table: &mut NodeTable, p: IVec3, count: usize) -> bool {
        let base = table.base();
        (table.slot(p).wrapping_sub(base) as usize) < count
    }

    /// Every slot reached through a neighbourhood is the slot of the neighbour's own
    /// position, in the flat array and in pages alike, and distinct positions have distinct
    /// slots.
    #[test]
    fn neighbour_slots_are_the_slots_of_the_neighbours() {
        let bounds = Bounds::new(IVec3::new(-3, -2, 5), IVec3::new(6, 4, 12));
        for flat in [Some(bounds), None] {
            let mut table = NodeTable::default();
            table.start(flat, 0);
            let mut next = table.base();
            let mut seen = std::collections::HashMap::new();
            // Positions inside the flat box, on its faces and outside it (in pages), across
            // page edges.
            for x in -5..8 {
                for y in -4..6 {
                    for z in 3..18 {
                        let p = IVec3::new(x, y, z);
                        let near = table.neighbourhood(p);
                        for (i, d) in FREE_DIRECTIONS.iter().enumerate() {
                            if near.inside & (1 << i) == 0 {
                                // Within a flat box every neighbour is found directly.
                                assert!(flat.is_none_or(|b| !b.contains(p) || !b.contains(p + *d)));
                                continue;
                            }
                            let value = *table.neighbour_slot(&near, i);
                            let q = p + *d;
                            assert_eq!(*table.slot(q), value, "{p} + {d}");
                            if let std::collections::hash_map::Entry::Vacant(entry) = seen.entry(q)
                            {
                                let near = table.neighbourhood(p);
                                *table.neighbour_slot(&near, i) = next;
                                entry.insert(next);
                                next += 1;
                            }
                        }
                    }
                }
            }
            assert!(seen.len() > 300);
            for (q, value) in &seen {
                assert_eq!(*table.slot(*q), *value, "{q}");
            }
        }
    }

    /// A new search forgets the nodes of the last one without clearing a slot, and when the
    /// numbers run out every slot is reset.
    #[test]
    fn slots_of_earlier_searches_name_no_node() {
        let mut table = NodeTable::default();
        let bounds = Bounds::from_size(IVec3::new(8, 8, 8));
        let (inside, outside) = (IVec3::new(2, 3, 4), IVec3::new(100, 3, 4));
        for round in 0..2 {
            if round == 1 {
                // Close to the end of the numbers: the next start resets every slot.
                table.base = NO_NODE - MAX_SEARCH_NODES as u32 - 1;
            }
            table.start(Some(bounds), 0);
            *table.slot(inside) = table.base();
            *table.slot(outside) = table.base() + 1;
            assert!(names_a_node(&mut table, inside, 2));
            assert!(names_a_node(&mut table, outside, 2));
            table.start(Some(bounds), 2);
            if round == 1 {
                assert_eq!(table.base(), 0);
            }
            for p in [inside, outside, IVec3::new(1, 1, 1)] {
                assert!(!names_a_node(&mut table, p, MAX_SEARCH_NODES), "{p}");
            }
            // Another world: the flat slots are reused as they are.
            table.start(Some(Bounds::from_size(IVec3::new(4, 30, 4))), 0);
            assert!(!names_a_node(&mut table, inside, MAX_SEARCH_NODES));
        }
    }
}
