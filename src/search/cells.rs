//! The cell table of fliers and swimmers: a search's record of each position it reached,
//! kept where the position lies.
//!
//! A free mover's moves go to the 26 neighbouring cells, so a node need not name its parent:
//! the step that reached it does (its arrival code), and the parent is the cell one step
//! back. A node's whole record (its cost, that step, whether it is closed) then fits in
//! 8 bytes (16 for costs past `u32`), and it is stored in a *page* of 16x16x16 cells next to
//! its neighbours' records, in 2x2x2 bricks of a cache line (see [`WITHIN`]): a node is a
//! page number and a cell of that page, the moves that stay within the page find their
//! targets' records at fixed offsets, and the 27 cells around a cell lie in 8 cache lines.
//! (Records in a list in the order nodes were made, found through a per-cell slot, cost a
//! cache miss for the slot and another for the record once a search outgrows the cache.)
//!
//! Pages are found through a *directory*: in a bounded world of at most [`DIRECTORY_PAGES`]
//! pages, an array with one entry per page of the world; elsewhere (an unbounded world, or a
//! position outside the bounds) a hash map of page keys. Pages are taken from a pool that
//! keeps its memory between searches, so memory follows the size of the largest search, not
//! of the world.
//!
//! Nothing is cleared between searches. Each search has its own *stamp*: a record or a
//! directory entry holds a node or a page of the current search only when it carries the
//! current stamp. Only when the stamps run out, after 67 million searches, is every
//! record and entry reset once.

use ahash::AHashMap;
use glam::IVec3;

use crate::moves::fly::FREE_DIRECTIONS;
use crate::world::Bounds;
use crate::world::key::{in_key_range, pack};

/// Cells per page side: 16, as a shift.
const SHIFT: i32 = 4;
const MASK: i32 = (1 << SHIFT) - 1;
/// Cells per page.
pub(crate) const PAGE_CELLS: usize = 1 << (3 * SHIFT);
/// The most pages of one search: 2^15 pages, 134 million cells, 1 GiB of 8-byte records
/// (2 GiB of 16-byte ones). A search that would need more stops first (see
/// [`CellTable::nearly_full`]); node numbers stay below 2^27.
const MAX_PAGES: usize = 1 << 15;
/// The most pages a bounded world may have for the directory to be an array, 8 bytes per
/// page of the world: 2^21 pages (8 billion cells) take 16 MiB. A 512 x 256 x 512 world has
/// 16 384 pages (128 KiB).
pub(crate) const DIRECTORY_PAGES: u64 = 1 << 21;

/// The arrival code in a record's tag: the low 5 bits, the code of the step from the
/// parent ([`crate::moves::fly::FREE_ARRIVALS`]; [`crate::moves::fly::NO_ARRIVAL`] for the
/// start).
pub(crate) const ARRIVAL_MASK: u32 = 31;
/// Bit of a record's tag set while the node is expanded (closed); a cheaper route found later
/// clears it (reopens the node).
pub(crate) const CLOSED: u32 = 1 << 5;
/// Where the stamp sits in a record's tag: above the arrival code and [`CLOSED`].
const STAMP_SHIFT: u32 = 6;
/// The last stamp: 2^26 - 1. (0 is no search's.)
const LAST_STAMP: u32 = u32::MAX >> STAMP_SHIFT;

/// A cell's record: a node of the search whose stamp its tag carries. Two widths, one search
/// loop: [`Narrow`] records take half the memory (and half the cache lines) and serve every
/// search whose costs stay within `u32`; a search that meets a larger cost is run again with
/// [`Wide`] ones.
pub(crate) trait Record: Copy + Default + std::fmt::Debug {
    /// The largest cost the record holds.
    const MAX_G: u64;
    /// A record of cost `g` (at most [`Record::MAX_G`]) and tag `tag`.
    fn new(g: u64, tag: u32) -> Self;
    /// The cost of the best route found to the cell.
    fn g(self) -> u64;
    /// The stamp of the search that wrote the record, [`CLOSED`] and the arrival code.
    fn tag(self) -> u32;
    /// Marks the node closed.
    fn close(&mut self);
}

/// A record of a cost within `u32`: 8 bytes.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
pub(crate) struct Narrow {
    g: u32,
    tag: u32,
}

impl Record for Narrow {
    const MAX_G: u64 = u32::MAX as u64;

    #[inline]
    fn new(g: u64, tag: u32) -> Self {
        debug_assert!(g <= Self::MAX_G);
        Self { g: g as u32, tag }
    }

    #[inline]
    fn g(self) -> u64 {
        u64::from(self.g)
    }

    #[inline]
    fn tag(self) -> u32 {
        self.tag
    }

    #[inline]
    fn close(&mut self) {
        self.tag |= CLOSED;
    }
}

/// A record of any cost: 16 bytes.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Wide {
    g: u64,
    tag: u32,
}

impl Record for Wide {
    const MAX_G: u64 = u64::MAX;

    #[inline]
    fn new(g: u64, tag: u32) -> Self {
        Self { g, tag }
    }

    #[inline]
    fn g(self) -> u64 {
        self.g
    }

    #[inline]
    fn tag(self) -> u32 {
        self.tag
    }

    #[inline]
    fn close(&mut self) {
        self.tag |= CLOSED;
    }
}

/// How far apart, in records, two cells of a page are along each axis: a page is made of
/// 2x2x2 *bricks* of cells, one 64-byte cache line of 8-byte records each (two lines of
/// 16-byte ones), so that the 27 cells around a cell lie in 8 bricks. A cell's index in its page is
/// `bx << 9 | bz << 6 | by << 3 | x << 2 | z << 1 | y`, with `(bx, by, bz)` its brick and
/// `(x, y, z)` its place in the brick.
const WITHIN: [i32; 3] = [4, 1, 2];
const _: () = assert!(SHIFT == 4, "the brick layout is that of 16-cell pages");
const ACROSS: [i32; 3] = [1 << 9, 1 << 3, 1 << 6];

/// The offset of a step `d` (-1, 0 or 1) along `axis` from a cell at place `at` (0 or 1) in its
/// brick, within the page.
const fn axis_offset(axis: usize, at: i32, d: i32) -> i32 {
    match (at, d) {
        (_, 0) => 0,
        (0, 1) | (1, -1) => d * WITHIN[axis],
        (1, _) => ACROSS[axis] - WITHIN[axis],
        _ => WITHIN[axis] - ACROSS[axis],
    }
}

/// The offset of each move of [`FREE_DIRECTIONS`] within a page, for each place of a cell in
/// its brick (the low 3 bits of its index), padded to 32 entries so that a move number masked
/// to 5 bits needs no bounds check.
const OFFSETS: [[i32; 32]; 8] = {
    let mut out = [[0i32; 32]; 8];
    let mut place = 0;
    while place < 8 {
        let at = [(place >> 2) & 1, place & 1, (place >> 1) & 1];
        let mut i = 0;
        while i < 26 {
            let d = FREE_DIRECTIONS[i].to_array();
            out[place as usize][i] = axis_offset(0, at[0], d[0])
                + axis_offset(1, at[1], d[1])
                + axis_offset(2, at[2], d[2]);
            i += 1;
        }
        place += 1;
    }
    out
};

/// The moves of [`FREE_DIRECTIONS`] that leave a page from a cell on one of its faces: entry
/// `[axis][side]`, for the low (`0`) and the high (`1`) face across x, y and z.
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

/// The moves that leave a page from the cell at `at` (0 to 15) along `axis`.
#[inline]
fn leaving(axis: usize, at: i32) -> u32 {
    let low = if at == 0 { LEAVING[axis][0] } else { 0 };
    let high = if at == MASK { LEAVING[axis][1] } else { 0 };
    low | high
}

/// Links per page: one per page of the 3x3x3 block of pages around it, itself included.
const LINKS: usize = 27;
/// A link not looked up yet.
const NO_LINK: u32 = u32::MAX;

/// The link of the page `d` (each coordinate -1, 0 or 1) pages away.
#[inline]
fn link_index(d: IVec3) -> usize {
    (9 * (d.y + 1) + 3 * (d.x + 1) + (d.z + 1)) as usize
}

/// The index of `p`'s cell in its page (see [`WITHIN`]).
#[inline]
fn cell_index(p: IVec3) -> u32 {
    let (x, y, z) = (
        (p.x & MASK) as u32,
        (p.y & MASK) as u32,
        (p.z & MASK) as u32,
    );
    (x >> 1) << 9 | (z >> 1) << 6 | (y >> 1) << 3 | (x & 1) << 2 | (z & 1) << 1 | (y & 1)
}

/// The position of the cell `cell` of a page whose lowest corner is `origin`.
#[inline]
fn cell_position(origin: IVec3, cell: u32) -> IVec3 {
    let cell = cell as i32;
    let x = (cell >> 9 & 7) << 1 | (cell >> 2 & 1);
    let z = (cell >> 6 & 7) << 1 | (cell >> 1 & 1);
    let y = (cell >> 3 & 7) << 1 | (cell & 1);
    origin + IVec3::new(x, y, z)
}

#[derive(Debug, Clone)]
pub(crate) struct CellTable<R> {
    /// The pages of the pool, [`PAGE_CELLS`] records each: node `n` is record `n`.
    cells: Vec<R>,
    /// The lowest corner of each page of the pool, for this search's pages.
    origins: Vec<IVec3>,
    /// For each page of the pool, the pages of this search around it ([`NO_LINK`] where not
    /// looked up yet), 27 entries in the order of [`link_index`]: a move that leaves a page
    /// finds its target's page here rather than through the directory.
    links: Vec<u32>,
    /// Pages of the pool this search took.
    in_use: usize,
    /// The current search's stamp: never 0, at most [`LAST_STAMP`].
    stamp: u32,
    /// The page coordinates the directory array covers (empty when there is no array).
    array_box: Bounds,
    /// Entry strides of the array along x and z (1 along y).
    array_strides: (usize, usize),
    /// The directory array: `stamp << 32 | page` for each page of `array_box` that this
    /// search made.
    array: Vec<u64>,
    /// The directory of pages outside `array_box`, by packed page coordinates.
    map: AHashMap<u64, u32>,
}

impl<R> Default for CellTable<R> {
    fn default() -> Self {
        Self {
            cells: Vec::new(),
            origins: Vec::new(),
            links: Vec::new(),
            in_use: 0,
            stamp: 0,
            array_box: Bounds::new(IVec3::ZERO, IVec3::ZERO),
            array_strides: (0, 0),
            array: Vec::new(),
            map: AHashMap::new(),
        }
    }
}

/// A node and the moves from it that stay in its page.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Neighbourhood {
    node: u32,
    /// Bit `i` set when the move [`FREE_DIRECTIONS`]`[i]` stays in the node's page.
    pub(crate) inside: u32,
}

impl Neighbourhood {
    /// Node `node` at `p`, and the moves from it that stay in its page.
    #[inline]
    pub(crate) fn new(node: u32, p: IVec3) -> Self {
        let out = leaving(0, p.x & MASK) | leaving(1, p.y & MASK) | leaving(2, p.z & MASK);
        Self {
            node,
            inside: !out & ((1 << 26) - 1),
        }
    }

    /// The node of the move [`FREE_DIRECTIONS`]`[i]`, whose bit is set in `inside`.
    #[inline]
    pub(crate) fn neighbour(self, i: usize) -> u32 {
        self.node
            .wrapping_add_signed(OFFSETS[self.node as usize & 7][i & 31])
    }
}

impl<R: Record> CellTable<R> {
    /// Starts a search in a world of `bounds` (`None` when unbounded): forgets every node,
    /// keeping the memory.
    pub(crate) fn start(&mut self, bounds: Option<Bounds>) {
        self.in_use = 0;
        self.map.clear();
        if self.stamp == LAST_STAMP {
            // The stamps ran out: every record and entry forgets its search, once per
            // 67 million searches.
            self.cells.fill(R::default());
            self.array.fill(0);
            self.stamp = 0;
        }
        self.stamp += 1;

        let array_box = bounds
            .filter(|b| !b.is_empty())
            .map(|b| Bounds::new(b.min >> SHIFT, ((b.max - IVec3::ONE) >> SHIFT) + IVec3::ONE))
            .filter(|pages| pages.volume() <= DIRECTORY_PAGES)
            .unwrap_or(Bounds::new(IVec3::ZERO, IVec3::ZERO));
        if array_box != self.array_box {
            // Entries of another world carry older stamps: the array is reused as it is.
            let entries = array_box.volume() as usize;
            if self.array.len() < entries {
                // A new zeroed array, not a resized one: the system maps its memory as the
                // search first touches it, so a short search in a large world takes only the
                // entries around it.
                self.array = vec![0; entries];
            }
            let size = array_box.size();
            self.array_strides = (size.y as usize * size.z as usize, size.y as usize);
            self.array_box = array_box;
        }
    }

    /// The tag of a record of this search reached by the step of arrival code `arrival`,
    /// open. A record is of this search when its tag, less the low 6 bits, is
    /// `tag(0)`.
    #[inline]
    pub(crate) fn tag(&self, arrival: u32) -> u32 {
        self.stamp << STAMP_SHIFT | arrival
    }

    /// Whether `record` is a node of this search.
    #[inline]
    pub(crate) fn is_current(&self, record: R) -> bool {
        record.tag() >> STAMP_SHIFT == self.stamp
    }

    /// Whether the search must stop before its next expansion: one more could take up to 26
    /// new pages and go past [`MAX_PAGES`].
    #[inline]
    pub(crate) fn nearly_full(&self) -> bool {
        self.in_use + 26 >= MAX_PAGES
    }

    /// The record of node `node`.
    #[inline]
    pub(crate) fn cell(&mut self, node: u32) -> &mut R {
        &mut self.cells[node as usize]
    }

    /// The position of node `node`.
    #[inline]
    pub(crate) fn position(&self, node: u32) -> IVec3 {
        let page = node as usize / PAGE_CELLS;
        cell_position(self.origins[page], node % PAGE_CELLS as u32)
    }

    /// The node at `p`, its page made if this search had none there: `None` when `p` is
    /// outside the key range (which the search never enters).
    #[inline]
    pub(crate) fn node(&mut self, p: IVec3) -> Option<u32> {
        let page_at = p >> SHIFT;
        if self.array_box.contains(page_at) {
            let index = self.array_index(page_at);
            let entry = self.array[index];
            if (entry >> 32) as u32 == self.stamp {
                return Some(entry as u32 * PAGE_CELLS as u32 + cell_index(p));
            }
        }
        self.node_slow(p)
    }

    /// [`CellTable::node`] when the page is not in the directory array yet, or not in the
    /// array's box.
    #[cold]
    #[inline(never)]
    fn node_slow(&mut self, p: IVec3) -> Option<u32> {
        let page_at = p >> SHIFT;
        let page = if self.array_box.contains(page_at) {
            let page = self.new_page(page_at);
            let index = self.array_index(page_at);
            self.array[index] = u64::from(self.stamp) << 32 | u64::from(page);
            page
        } else {
            self.mapped_page(p)?
        };
        Some(page * PAGE_CELLS as u32 + cell_index(p))
    }

    /// [`CellTable::node`] of `target`, a neighbour of node `from` at `feet` in another
    /// page: through the links of `from`'s page.
    #[inline]
    pub(crate) fn neighbour_node(&mut self, from: u32, feet: IVec3, target: IVec3) -> Option<u32> {
        let link =
            from as usize / PAGE_CELLS * LINKS + link_index((target >> SHIFT) - (feet >> SHIFT));
        match self.links.get(link) {
            Some(&page) if page != NO_LINK => Some(page * PAGE_CELLS as u32 + cell_index(target)),
            _ => self.link(link, target),
        }
    }

    /// [`CellTable::neighbour_node`] when the link is not known yet: through the directory,
    /// keeping the page in the link.
    #[cold]
    #[inline(never)]
    fn link(&mut self, link: usize, target: IVec3) -> Option<u32> {
        let node = self.node(target)?;
        if let Some(entry) = self.links.get_mut(link) {
            *entry = node / PAGE_CELLS as u32;
        }
        Some(node)
    }

    /// The node of this search at `p`, if there is one.
    pub(crate) fn find(&self, p: IVec3) -> Option<u32> {
        let page_at = p >> SHIFT;
        let page = if self.array_box.contains(page_at) {
            let entry = self.array[self.array_index(page_at)];
            ((entry >> 32) as u32 == self.stamp).then_some(entry as u32)?
        } else if in_key_range(p) {
            *self.map.get(&pack(page_at))?
        } else {
            return None;
        };
        let node = page * PAGE_CELLS as u32 + cell_index(p);
        self.is_current(self.cells[node as usize]).then_some(node)
    }

    /// The nodes of this search, with their records.
    pub(crate) fn nodes(&self) -> impl Iterator<Item = (IVec3, R)> + '_ {
        self.cells[..self.in_use * PAGE_CELLS]
            .iter()
            .enumerate()
            .filter(|(_, cell)| self.is_current(**cell))
            .map(|(node, cell)| (self.position(node as u32), *cell))
    }

    /// The positions of this search's closed nodes.
    pub(crate) fn closed(&self) -> impl Iterator<Item = IVec3> + '_ {
        self.nodes()
            .filter(|(_, cell)| cell.tag() & CLOSED != 0)
            .map(|(p, _)| p)
    }

    #[inline]
    fn array_index(&self, page_at: IVec3) -> usize {
        let d = page_at - self.array_box.min;
        d.x as usize * self.array_strides.0 + d.z as usize * self.array_strides.1 + d.y as usize
    }

    /// The page of `p` through the map, made if needed: `None` outside the key range.
    fn mapped_page(&mut self, p: IVec3) -> Option<u32> {
        if !in_key_range(p) {
            return None;
        }
        // Page coordinates of positions in the key range are in it too: distinct pages have
        // distinct keys.
        let page_at = p >> SHIFT;
        let key = pack(page_at);
        if let Some(&page) = self.map.get(&key) {
            return Some(page);
        }
        let page = self.new_page(page_at);
        self.map.insert(key, page);
        Some(page)
    }

    /// Takes the next page of the pool for the page at page coordinates `page_at`.
    fn new_page(&mut self, page_at: IVec3) -> u32 {
        let page = self.in_use;
        if page == self.origins.len() {
            // Records no search wrote: stamp 0.
            self.cells
                .resize(self.cells.len() + PAGE_CELLS, R::default());
            self.origins.push(IVec3::ZERO);
            self.links.resize(self.links.len() + LINKS, NO_LINK);
        }
        // A page taken again keeps its records: they carry the stamps of earlier searches.
        // Its links were an earlier search's.
        self.origins[page] = page_at << SHIFT;
        self.links[page * LINKS..(page + 1) * LINKS].fill(NO_LINK);
        self.in_use += 1;
        page as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every neighbour found through a neighbourhood or through a page's links is the node of
    /// the neighbour's own position, distinct positions have distinct nodes, and positions come back from nodes,
    /// in the directory array and in the map alike.
    #[test]
    fn neighbours_and_positions_agree() {
        let bounds = Bounds::new(IVec3::new(-3, -2, 5), IVec3::new(14, 9, 21));
        for world in [Some(bounds), None] {
            let mut table = CellTable::<Narrow>::default();
            table.start(world);
            let mut seen = std::collections::HashMap::new();
            // Positions inside the bounds and outside them (in the map), across page faces.
            for x in -20..36 {
                for y in -18..20 {
                    for z in -4..40 {
                        let p = IVec3::new(x, y, z);
                        let node = table.node(p).unwrap();
                        assert_eq!(table.position(node), p);
                        if let Some(other) = seen.insert(node, p) {
                            assert_eq!(other, p, "two positions share node {node}");
                        }
                        let near = Neighbourhood::new(node, p);
                        for (i, d) in FREE_DIRECTIONS.iter().enumerate() {
                            let q = p + *d;
                            let inside = (q >> SHIFT) == (p >> SHIFT);
                            assert_eq!(near.inside & (1 << i) != 0, inside, "{p} + {d}");
                            let expected = table.node(q);
                            if inside {
                                assert_eq!(Some(near.neighbour(i)), expected, "{p} + {d}");
                            } else {
                                // Twice: the link is looked up, then kept.
                                for _ in 0..2 {
                                    let linked = table.neighbour_node(node, p, q);
                                    assert_eq!(linked, expected, "{p} + {d}");
                                }
                            }
                        }
                    }
                }
            }
            // Both directories served: the array only in a bounded world.
            assert!(!table.map.is_empty());
            let arrayed = table
                .array
                .iter()
                .filter(|e| (*e >> 32) as u32 == table.stamp);
            assert_eq!(arrayed.count() > 0, world.is_some());
        }
    }

    /// A node is found only once its record carries the search's stamp, a new search forgets
    /// the nodes of the last one without clearing a record, and when the stamps run out every
    /// record is reset.
    #[test]
    fn nodes_of_earlier_searches_are_forgotten() {
        nodes_of_earlier_searches_are_forgotten_in::<Narrow>();
        nodes_of_earlier_searches_are_forgotten_in::<Wide>();
    }

    fn nodes_of_earlier_searches_are_forgotten_in<R: Record>() {
        let mut table = CellTable::<R>::default();
        let bounds = Bounds::from_size(IVec3::new(20, 20, 20));
        let (inside, outside) = (IVec3::new(2, 3, 4), IVec3::new(100, 3, 4));
        for round in 0..2 {
            if round == 1 {
                // The last stamp: the next start resets every record.
                table.stamp = LAST_STAMP - 1;
            }
            table.start(Some(bounds));
            for p in [inside, outside] {
                let node = table.node(p).unwrap();
                assert_eq!(table.find(p), None);
                let tag = table.tag(3);
                *table.cell(node) = R::new(R::MAX_G, tag);
                assert_eq!(table.find(p), Some(node));
                table.cell(node).close();
                let record = *table.cell(node);
                assert!(table.is_current(record));
                assert_eq!(table.cell(node).tag(), tag | CLOSED);
                assert_eq!(table.cell(node).g(), R::MAX_G);
            }
            assert_eq!(table.nodes().count(), 2);
            table.start(Some(bounds));
            if round == 1 {
                assert_eq!(table.stamp, 1);
            }
            for p in [inside, outside, IVec3::new(1, 1, 1)] {
                assert_eq!(table.find(p), None, "{p}");
            }
            assert_eq!(table.nodes().count(), 0);
            // Another world: the directory array is reused as it is.
            table.start(Some(Bounds::from_size(IVec3::new(4, 30, 4))));
            assert_eq!(table.find(inside), None);
        }
    }

    /// Positions outside the key range get no node.
    #[test]
    fn positions_outside_the_key_range_get_no_node() {
        let mut table = CellTable::<Wide>::default();
        table.start(None);
        let far = crate::world::key::KEY_MAX + IVec3::X;
        assert_eq!(table.node(far), None);
        assert_eq!(table.find(far), None);
        assert!(table.node(crate::world::key::KEY_MAX).is_some());
    }
}
