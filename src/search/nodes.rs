//! The node table: from a feet position to its node index, in pages of 16x4x16 cells.
//!
//! A search touches cells in a few compact regions, so positions are grouped by page: a page
//! is a dense array of 4096 slots found through a small hash map of page keys, with the last
//! page used cached. Pages are recycled between searches: starting a search forgets the page
//! map and reuses the page memory, so nothing is freed or allocated per query once the
//! pathfinder has warmed up.

use ahash::AHashMap;
use glam::IVec3;

use crate::moves::fly::FREE_DIRECTIONS;
use crate::world::key::pack;

/// Pages are 16 cells wide along x and z and 4 cells tall: searches over terrain touch a
/// thin surface, so tall pages would be mostly empty memory to clear.
const PAGE_SHIFT: i32 = 4;
const PAGE_MASK: i32 = (1 << PAGE_SHIFT) - 1;
const PAGE_Y_SHIFT: i32 = 2;
const PAGE_Y_MASK: i32 = (1 << PAGE_Y_SHIFT) - 1;
const PAGE_CELLS: usize = 1 << (2 * PAGE_SHIFT + PAGE_Y_SHIFT);
/// The slot value of a cell with no node.
pub(crate) const NO_NODE: u32 = u32::MAX;

/// The slot offset of each move of [`FREE_DIRECTIONS`] within a page, for a target in the
/// same page as its start (see [`slot_index`]: x is the highest part, then z, then y).
const NEIGHBOUR_OFFSETS: [isize; 26] = {
    let mut out = [0isize; 26];
    let mut i = 0;
    while i < 26 {
        let d = FREE_DIRECTIONS[i];
        out[i] = ((d.x << (PAGE_SHIFT + PAGE_Y_SHIFT)) + (d.z << PAGE_Y_SHIFT) + d.y) as isize;
        i += 1;
    }
    out
};

/// The moves of [`FREE_DIRECTIONS`] whose offset along one axis is `-1` and `+1`, for x, y and
/// z: the moves that leave a page from a cell on its low or high face.
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

/// The page of one position and which of its 26 neighbours share that page: their slots are
/// at fixed offsets from its own, with no page lookup.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Neighbourhood {
    page: u32,
    slot: usize,
    /// Bit `i` set when the move [`FREE_DIRECTIONS`]`[i]` stays in the page.
    pub(crate) inside: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct NodeTable {
    pages: Vec<Box<[u32; PAGE_CELLS]>>,
    in_use: usize,
    directory: AHashMap<u64, u32>,
    last_key: u64,
    last_page: u32,
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
            pages: Vec::new(),
            in_use: 0,
            directory: AHashMap::new(),
            // Page coordinates are positions divided by 16 or 4, so their packed key never
            // has all 64 bits set: the cache starts empty.
            last_key: u64::MAX,
            last_page: 0,
        }
    }
}

impl NodeTable {
    /// Forgets every entry, keeping the memory.
    pub(crate) fn clear(&mut self) {
        self.in_use = 0;
        self.directory.clear();
        self.last_key = u64::MAX;
        self.last_page = 0;
    }

    /// The slot of `p`, created (holding [`NO_NODE`]) if its page did not exist yet.
    /// `p` must be in the key range.
    #[expect(
        clippy::inline_always,
        reason = "called once per generated node; callgrind: 4% fewer instructions per search when inlined"
    )]
    #[inline(always)]
    pub(crate) fn slot(&mut self, p: IVec3) -> &mut u32 {
        let key = page_key(p);
        if key != self.last_key {
            self.last_page = match self.directory.get(&key) {
                Some(&page) => page,
                None => self.new_page(key),
            };
            self.last_key = key;
        }
        &mut self.pages[self.last_page as usize][slot_index(p)]
    }

    /// The page of `p` (created if needed) and the neighbours of `p` in it. `p` must be in
    /// the key range. Pages never straddle the edge of the key range (its bounds are
    /// multiples of the page sides), so a neighbour in the page is in the key range too.
    #[inline]
    pub(crate) fn neighbourhood(&mut self, p: IVec3) -> Neighbourhood {
        self.slot(p);
        let face = |at: i32, mask: i32, moves: [u32; 2]| {
            let low = if at & mask == 0 { moves[0] } else { 0 };
            let high = if at & mask == mask { moves[1] } else { 0 };
            low | high
        };
        let leaving = face(p.x, PAGE_MASK, LEAVING[0])
            | face(p.y, PAGE_Y_MASK, LEAVING[1])
            | face(p.z, PAGE_MASK, LEAVING[2]);
        Neighbourhood {
            page: self.last_page,
            slot: slot_index(p),
            inside: !leaving & ((1 << 26) - 1),
        }
    }

    /// The slot of the neighbour [`FREE_DIRECTIONS`]`[i]` of the position of `near`, when bit
    /// `i` of `near.inside` is set.
    #[inline]
    pub(crate) fn neighbour_slot(&mut self, near: &Neighbourhood, i: usize) -> &mut u32 {
        // The neighbour is in the page, so the mask changes nothing; it lets the compiler
        // drop the bounds check.
        let slot = near.slot.wrapping_add_signed(NEIGHBOUR_OFFSETS[i]) & (PAGE_CELLS - 1);
        &mut self.pages[near.page as usize][slot]
    }

    #[cold]
    fn new_page(&mut self, key: u64) -> u32 {
        let page = self.in_use;
        if page == self.pages.len() {
            self.pages.push(Box::new([NO_NODE; PAGE_CELLS]));
        } else {
            self.pages[page].fill(NO_NODE);
        }
        self.in_use += 1;
        self.directory.insert(key, page as u32);
        page as u32
    }
}
