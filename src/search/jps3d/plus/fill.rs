//! Filling the tables: the entry of a cell from the entry of the next cell along its line,
//! for the whole world (in an order where the next cell is always done first) or for single
//! lines (what an update fills again).
//!
//! A build first gives every cell a mask of what its neighbourhood allows ([`Kinds`]: by
//! entry, whether the move fits and whether an arrival stops there at a forced move),
//! remembered per neighbourhood, since a world has few distinct ones and the forced moves of
//! one take a test per possible move and arrival. Then each face and each edge direction is
//! one sweep over the cells, row by row along z, every line from its far end back: a wall
//! where the move does not fit, a stop one step on where the next cell stops the arrival,
//! else one more than the next cell's entry. A face sweep marks in the masks the cells whose
//! jump ends at a stop, so that an edge sweep reads whether its face sub-jumps stop from the
//! next cell's mask instead of following face entries. Updates fill single lines with
//! [`JumpTables::entry_of`], the same definition cell by cell; the test below checks every
//! entry of builds against it.
//!
//! Build instructions, callgrind with `--toggle-collect='*build_tables*'` on
//! `cargo bench --bench jps3d` (`JPS3D_ENGINE=tables`, `JPS3D_SET` one set), and the mean of
//! the bench's 40 updates after one changed block (`--toggle-collect='*update_tables*'`):
//!
//! | set (cells) | build before: per cell | build now: per cell | update before / now |
//! |---|---|---|---|
//! | `Simple` (1.48 M) | 3 406 M: 2 300 | 699 M: 473 (4.9x fewer) | 30.6 M / 14.7 M |
//! | pillars (0.44 M) | 1 057 M: 2 390 | 195 M: 440 (5.4x) | 5.2 M / 2.7 M |
//! | large (8.39 M) | 20 340 M: 2 420 | 3 585 M: 427 (5.7x) | 10.8 M / 5.8 M |
//!
//! What is left per cell: the 9 "fits" words read for its neighbourhood, and per direction
//! a few loads, tests and a store.

use std::sync::OnceLock;

use glam::IVec3;

use super::{JUMP, JumpTables, MORE, SLOTS, one_more};
use crate::moves::agent::MoveCosts;
use crate::moves::fly::FREE_DIRECTIONS;
use crate::search::jps3d::canon::{Tables, rank};

/// Where the bits of a [`Kinds::of`] mask start: those of the entries whose move the cell
/// allows (bit `slot`), those of the arrivals that stop at the cell at a forced move, and
/// (set by the face sweeps) those of the face jumps from the cell that end at a stop.
const STOPS: usize = 32;
const HIT: usize = 24;

/// The moves and forced stops of neighbourhoods, remembered: a world has few distinct
/// neighbourhoods, and the forced moves of one take a test per possible move and arrival.
struct Kinds<'a> {
    forced: &'a Tables,
    /// The face and edge directions by entry slot.
    dirs: [usize; SLOTS],
    /// The last neighbourhood seen at each place (by a hash of it) and its mask; `u32::MAX`
    /// (no neighbourhood: they have 27 bits) where none was.
    seen: Vec<(u32, u64)>,
}

/// The forced moves of the octile costs (those of any costs), made once.
pub(super) fn forced_tables() -> &'static Tables {
    static FORCED: OnceLock<Tables> = OnceLock::new();
    FORCED.get_or_init(|| Tables::new(&MoveCosts::octile()))
}

/// The places [`Kinds`] remembers neighbourhoods at: a power of two.
const KINDS_SEEN: usize = 1 << 12;

impl<'a> Kinds<'a> {
    fn new(tables: &JumpTables, forced: &'a Tables) -> Self {
        let mut dirs = [0; SLOTS];
        for (dir, &d) in FREE_DIRECTIONS.iter().enumerate() {
            if rank(d) <= 2 {
                dirs[tables.slot[dir]] = dir;
            }
        }
        Self {
            forced,
            dirs,
            seen: vec![(u32::MAX, 0); KINDS_SEEN],
        }
    }

    /// The mask of a cell whose neighbourhood is `around`: bit `slot` when the move along
    /// the entry's direction fits, bit [`STOPS`]` + slot` when an arrival along it has a
    /// forced move.
    #[inline]
    fn of(&mut self, around: u32) -> u64 {
        let place = (around.wrapping_mul(0x9E37_79B1) >> 20) as usize % KINDS_SEEN;
        let (key, mask) = self.seen[place];
        if key == around {
            return mask;
        }
        let mut mask = 0u64;
        for (slot, &dir) in self.dirs.iter().enumerate() {
            let required = self.forced.required[dir];
            if around & required == required {
                mask |= 1 << slot;
            }
            if self.forced.forced_moves(dir, around) != 0 {
                mask |= 1 << (STOPS + slot);
            }
        }
        self.seen[place] = (around, mask);
        mask
    }
}

impl JumpTables {
    /// Fills every cell: the neighbourhoods from the "fits" words, then what each
    /// neighbourhood allows (the moves of the cell and the arrivals forced to stop there,
    /// [`Kinds`]), then each face direction and each edge direction in one sweep over the
    /// cells, every line from its far end back.
    pub(super) fn fill_all(&mut self, forced: &Tables) {
        let (min, size) = (self.bounds.min, self.size);
        let mut kinds = Kinds::new(self, forced);
        let mut masks = Vec::with_capacity(self.cells.len());
        let mut i = 0;
        for x in 0..size.x {
            for y in 0..size.y {
                for z in 0..size.z {
                    let around = self.fits.around_filled(min + IVec3::new(x, y, z));
                    self.cells[i].around = around;
                    masks.push(kinds.of(around));
                    i += 1;
                }
            }
        }
        // The faces first: the edges read whether the face jumps end at a stop.
        for rank_wanted in [1, 2] {
            for (dir, &d) in FREE_DIRECTIONS.iter().enumerate() {
                if rank(d) == rank_wanted {
                    self.sweep(&mut masks, dir);
                }
            }
        }
    }

    /// Fills the entries of `dir` (a face or an edge) in every cell whose next cell along
    /// it lies inside the bounds (the others keep the 0 of a wall), with `masks` as
    /// [`Kinds::of`] gave them; a face sweep also marks in `masks` the cells whose jump
    /// along it ends at a stop ([`HIT`]), which the edge sweeps read.
    fn sweep(&mut self, masks: &mut [u64], dir: usize) {
        let (d, size, slot) = (FREE_DIRECTIONS[dir], self.size, self.slot[dir]);
        let step = self.step[dir];
        let moves = 1u64 << slot;
        // An arrival stops at the next cell at a forced move, or for an edge where the
        // face jump along one of its two axes ends at a stop.
        let mut stops = 1u64 << (STOPS + slot);
        if let Some(faces) = self.sub_faces[dir] {
            for face in faces {
                stops |= 1 << (HIT + self.slot[face]);
            }
        }
        let hit = if slot < 6 { 1u64 << (HIT + slot) } else { 0 };
        // The entry of a cell whose move fits, from its next cell's mask and entry, and its
        // mark: whether its face jump ends at a stop.
        let fill = |ahead: u64, next: u8| {
            let entry = if ahead & stops != 0 {
                JUMP | 1
            } else {
                one_more(next)
            };
            (entry, if ahead & (stops | hit) != 0 { hit } else { 0 })
        };
        // The rows along z whose next row along `d` lies inside, the far end first.
        let span = |axis: usize, t: i32| match d[axis] {
            1 => size[axis] - 2 - t,
            -1 => t + 1,
            _ => t,
        };
        let count = |axis: usize| size[axis] - d[axis].abs();
        let n = size.z as usize;
        // The cells of a row whose next cell lies inside, and those next cells.
        let (inner, ahead) = match d.z {
            1 => (0..n - 1, 1..n),
            -1 => (1..n, 0..n - 1),
            _ => (0..n, 0..n),
        };
        for a in 0..count(0) {
            let x = span(0, a);
            for b in 0..count(1) {
                let row = self.relative_index(IVec3::new(x, span(1, b), 0));
                if d.x == 0 && d.y == 0 {
                    // Along z, each cell from the one just done.
                    let cells = &mut self.cells[row..row + n];
                    let masks = &mut masks[row..row + n];
                    let mut one = |z: usize, next: usize| {
                        if masks[z] & moves != 0 {
                            let (entry, mark) = fill(masks[next], cells[next].jumps[slot]);
                            cells[z].jumps[slot] = entry;
                            masks[z] |= mark;
                        }
                    };
                    if d.z > 0 {
                        inner.clone().rev().for_each(|z| one(z, z + 1));
                    } else {
                        inner.clone().for_each(|z| one(z, z - 1));
                    }
                    continue;
                }
                // Another row, filled before this one.
                let next_row = row.wrapping_add_signed(step - d.z as isize);
                let (cells, next_cells) = rows(&mut self.cells, row, next_row, n);
                let (masks, next_masks) = rows(masks, row, next_row, n);
                let cells = cells[inner.clone()]
                    .iter_mut()
                    .zip(&mut masks[inner.clone()]);
                let next = next_cells[ahead.clone()]
                    .iter()
                    .zip(&next_masks[ahead.clone()]);
                for ((cell, mask), (next_cell, &next_mask)) in cells.zip(next) {
                    if *mask & moves != 0 {
                        let (entry, mark) = fill(next_mask, next_cell.jumps[slot]);
                        cell.jumps[slot] = entry;
                        *mask |= mark;
                    }
                }
            }
        }
    }

    /// Fills the entries of `dir` along its whole line through the relative position `r`
    /// (inside the bounds), from the far end back. With `changed_hits`, pushes (relative) every
    /// cell of a face line whose jump along `dir` changed between ending at a forced
    /// move and not (what the edge entries read).
    pub(super) fn fill_line(
        &mut self,
        forced: &Tables,
        dir: usize,
        r: IVec3,
        changed_hits: Option<&mut Vec<IVec3>>,
    ) {
        let d = FREE_DIRECTIONS[dir];
        let mut first = r;
        while self.inside(first - d) {
            first -= d;
        }
        let mut line = Vec::with_capacity(self.longest_line() as usize);
        let mut at = first;
        while self.inside(at) {
            line.push((self.relative_index(at), at));
            at += d;
        }
        let before = changed_hits.as_ref().map(|_| self.line_hits(&line, dir));
        let slot = self.slot[dir];
        // The last cell's next one lies outside: a wall.
        if let Some(&(last, _)) = line.last() {
            self.cells[last].jumps[slot] = 0;
        }
        for &(index, _) in line.iter().rev().skip(1) {
            self.cells[index].jumps[slot] = self.entry_inside(forced, index, dir);
        }
        if let (Some(list), Some(before)) = (changed_hits, before) {
            let after = self.line_hits(&line, dir);
            for ((&(_, at), was), is) in line.iter().zip(before).zip(after) {
                if was != is {
                    list.push(at);
                }
            }
        }
    }

    /// For each cell of `line` (in order along `dir`), whether its jump along `dir` ends at
    /// a stop.
    fn line_hits(&self, line: &[(usize, IVec3)], dir: usize) -> Vec<bool> {
        let slot = self.slot[dir];
        let mut hits = vec![false; line.len()];
        for t in (0..line.len()).rev() {
            let entry = self.cells[line[t].0].jumps[slot];
            hits[t] = if entry == MORE {
                hits.get(t + usize::from(MORE)).copied().unwrap_or(false)
            } else {
                entry & JUMP != 0
            };
        }
        hits
    }

    /// Whether the relative position `r` lies inside the bounds.
    #[inline]
    pub(super) fn inside(&self, r: IVec3) -> bool {
        r.cmpge(IVec3::ZERO).all() && r.cmplt(self.size).all()
    }

    /// The index of the relative position `r` (inside the bounds).
    #[inline]
    pub(super) fn relative_index(&self, r: IVec3) -> usize {
        (r.x as usize * self.size.y as usize + r.y as usize) * self.size.z as usize + r.z as usize
    }

    /// The entry of the cell `index` at the relative position `r` in the direction `dir` (a
    /// face or an edge), from the entries of the next cell along it, which must be final.
    pub(super) fn entry_of(&self, forced: &Tables, index: usize, r: IVec3, dir: usize) -> u8 {
        let (ahead, size) = (r + FREE_DIRECTIONS[dir], self.size);
        // Negative components wrap to large unsigned ones, outside the size too.
        if ahead.x as u32 >= size.x as u32
            || ahead.y as u32 >= size.y as u32
            || ahead.z as u32 >= size.z as u32
        {
            return 0;
        }
        self.entry_inside(forced, index, dir)
    }

    /// [`JumpTables::entry_of`] for a cell whose next cell along `dir` lies inside the
    /// bounds.
    #[inline]
    pub(super) fn entry_inside(&self, forced: &Tables, index: usize, dir: usize) -> u8 {
        let required = forced.required[dir];
        if self.cells[index].around & required != required {
            return 0;
        }
        let next = index.wrapping_add_signed(self.step[dir]);
        let next_cell = self.cells[next];
        // An edge stops also where the face jump along one of its axes stops at a forced
        // move.
        let stops = forced.forced_moves(dir, next_cell.around) != 0
            || self.sub_faces[dir].is_some_and(|[a, b]| self.hits(next, a) || self.hits(next, b));
        if stops {
            JUMP | 1
        } else {
            one_more(next_cell.jumps[self.slot[dir]])
        }
    }

    /// Whether the face jump from the cell `index` in the face direction `dir` ends at a
    /// forced move (else at a wall).
    #[inline]
    pub(super) fn hits(&self, mut index: usize, dir: usize) -> bool {
        let slot = self.slot[dir];
        loop {
            let entry = self.cells[index].jumps[slot];
            if entry != MORE {
                return entry & JUMP != 0;
            }
            index = index.wrapping_add_signed(self.more_step[dir]);
        }
    }
}

/// The row of `n` items at `row` of `items`, and the other row at `other` (not `row`: rows
/// do not overlap).
fn rows<T>(items: &mut [T], row: usize, other: usize, n: usize) -> (&mut [T], &[T]) {
    if row < other {
        let (low, high) = items.split_at_mut(other);
        (&mut low[row..row + n], &high[..n])
    } else {
        let (low, high) = items.split_at_mut(row);
        (&mut high[..n], &low[other..other + n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::agent::Agent;
    use crate::world::{Block, Bounds, ChunkedWorld};

    /// The sweeps of a build give the entries of the cell-by-cell definition
    /// ([`JumpTables::entry_of`] from the entries of the next cell, faces before edges, each
    /// line from its far end: what updates fill with), every entry of every cell, on random
    /// worlds of few to many solid blocks and water, with lines of more than 127 steps, at
    /// negative and positive offsets, for fliers and swimmers one to three cells tall and two
    /// wide.
    #[test]
    fn sweeps_give_the_cell_by_cell_entries() {
        let mut next = crate::testing::xorshift(0x2545_F491_4F6C_DD1D);
        let forced = Tables::new(&MoveCosts::octile());
        let (mut stops, mut free, mut walls) = (0usize, 0usize, 0usize);
        for round in 0..8u32 {
            let min = IVec3::new(
                (next() % 300) as i32 - 150,
                (next() % 300) as i32 - 150,
                (next() % 300) as i32 - 150,
            );
            let mut size = IVec3::new(
                5 + (next() % 20) as i32,
                5 + (next() % 20) as i32,
                5 + (next() % 20) as i32,
            );
            if round % 2 == 0 {
                size[(round / 2 % 3) as usize] = 140 + (next() % 60) as i32;
            }
            let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
            // Solid blocks per 1 000, from open worlds with long free lines to crowded ones.
            let solid = [2, 30, 150, 400][(round % 4) as usize];
            for x in 0..size.x {
                for y in 0..size.y {
                    for z in 0..size.z {
                        let roll = next() % 1_000;
                        let block = if roll < solid {
                            Block::Solid
                        } else if roll < 450 {
                            Block::Water
                        } else {
                            continue;
                        };
                        world.set(min + IVec3::new(x, y, z), block).unwrap();
                    }
                }
            }
            let agent = match round % 4 {
                1 => Agent::swimmer(2),
                2 => Agent::flier(3).with_width(2),
                3 => Agent::swimmer(1),
                _ => Agent::flier(1),
            };
            let built = JumpTables::build(&world, agent).unwrap();
            let mut by_cells = built.clone();
            // The bounds of the world as the body sees it.
            let size = built.size;
            for cell in &mut by_cells.cells {
                cell.jumps = [0xAA; SLOTS];
            }
            for rank_wanted in [1, 2] {
                for (dir, &d) in FREE_DIRECTIONS.iter().enumerate() {
                    if rank(d) != rank_wanted {
                        continue;
                    }
                    let order = |axis: usize, t: i32| {
                        if d[axis] > 0 { size[axis] - 1 - t } else { t }
                    };
                    for a in 0..size.x {
                        for b in 0..size.y {
                            for c in 0..size.z {
                                let r = IVec3::new(order(0, a), order(1, b), order(2, c));
                                let index = by_cells.relative_index(r);
                                let entry = by_cells.entry_of(&forced, index, r, dir);
                                by_cells.cells[index].jumps[by_cells.slot[dir]] = entry;
                            }
                        }
                    }
                }
            }
            let first_wrong = (0..built.cells.len()).find(|&i| built.cells[i] != by_cells.cells[i]);
            assert_eq!(
                first_wrong.map(|i| (i, built.cells[i], by_cells.cells[i])),
                None,
                "{agent:?} in {size} at {min}"
            );
            for cell in &built.cells {
                for &entry in &cell.jumps {
                    stops += usize::from(entry & JUMP != 0);
                    free += usize::from(entry == MORE);
                    walls += usize::from(entry == 0);
                }
            }
        }
        assert!(
            stops > 100_000 && free > 1_000 && walls > 100_000,
            "{stops} entries ending at a stop, {free} of 127 free steps, {walls} at a wall"
        );
    }
}
