//! Filling the tables: the entry of a cell from the entry of the next cell along its line,
//! for the whole world (in an order where the next cell is always done first) or for single
//! lines (what an update fills again).

use glam::IVec3;

use super::{JUMP, JumpTables, MORE, one_more};
use crate::moves::fly::FREE_DIRECTIONS;
use crate::search::jps3d::canon::{Tables, rank};

impl JumpTables {
    /// Fills every cell: the neighbourhoods from the "fits" words, then the face entries
    /// (which the edge entries read), then the edge entries.
    pub(super) fn fill_all(&mut self, forced: &Tables) {
        let (min, size) = (self.bounds.min, self.size);
        let mut i = 0;
        for x in 0..size.x {
            for y in 0..size.y {
                for z in 0..size.z {
                    self.cells[i].around = self.fits.around_filled(min + IVec3::new(x, y, z));
                    i += 1;
                }
            }
        }
        for rank_wanted in [1, 2] {
            for (dir, &d) in FREE_DIRECTIONS.iter().enumerate() {
                if rank(d) == rank_wanted {
                    self.fill_direction(forced, dir);
                }
            }
        }
    }

    /// Fills the entries of `dir` in every cell, each line from its far end back: along each
    /// axis the direction moves forward on, from the high end.
    fn fill_direction(&mut self, forced: &Tables, dir: usize) {
        let (d, size) = (FREE_DIRECTIONS[dir], self.size);
        let order = |axis: usize, t: i32| if d[axis] > 0 { size[axis] - 1 - t } else { t };
        for a in 0..size.x {
            let x = order(0, a);
            for b in 0..size.y {
                let y = order(1, b);
                for c in 0..size.z {
                    let r = IVec3::new(x, y, order(2, c));
                    let index = self.relative_index(r);
                    self.cells[index].jumps[self.slot[dir]] = self.entry_of(forced, index, r, dir);
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
        let mut line = Vec::new();
        let mut at = first;
        while self.inside(at) {
            line.push((self.relative_index(at), at));
            at += d;
        }
        let before = changed_hits.as_ref().map(|_| self.line_hits(&line, dir));
        let slot = self.slot[dir];
        for &(index, at) in line.iter().rev() {
            self.cells[index].jumps[slot] = self.entry_of(forced, index, at, dir);
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
