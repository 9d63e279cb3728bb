//! Bringing the tables up to date after blocks change: only the lines through the changed
//! cells' neighbourhoods are filled again.
//!
//! A changed block changes where the body fits in the cells whose body covers it (up to
//! `height` cells below it, and `width - 1` cells back along x and z for a wide body) and in
//! those just above it (a fence reaches into the cell above, where a wide body's view refuses
//! the body), and so the neighbourhood bits of the cells around those. A face entry reads the
//! neighbourhoods of its cell and the next one and the entry after it: every face line through
//! a cell whose neighbourhood changed is filled again, whole. An edge entry reads also whether
//! the face jumps of the next cell along its two axes end at a forced move: the edge entries of
//! the cells whose neighbourhood changed, of the cells just behind them, and of the cells just
//! behind a cell whose face jump along one of the edge's axes changed that way, are filled
//! again, each followed back along its line while the entries change. The result equals a fresh
//! build (the property test below).

use ahash::AHashSet;
use glam::IVec3;

use super::fill::forced_tables;
use super::{JumpTables, MAX_TABLE_CELLS};
use crate::error::{Error, Result};
use crate::moves::fly::FREE_DIRECTIONS;
use crate::moves::wide::BoxView;
use crate::search::jps3d::canon::{Tables, rank};
use crate::world::{Changes, Revision, VoxelWorld};

/// The bits of a walk's key ([`JumpTables::start_key`]) that hold its cell's index, and
/// where its direction starts (after the 26 bits of the distance behind).
const START_INDEX: u64 = MAX_TABLE_CELLS - 1;
const START_DIR: u32 = START_INDEX.count_ones() + 26;

impl JumpTables {
    /// Brings the tables up to date after the blocks at `changed` changed in `world`, the
    /// world they were built from (cells outside its bounds are ignored; listing a cell that
    /// did not change is harmless). Only the lines through the changed cells' neighbourhoods
    /// are filled again; the result is what [`JumpTables::build`] would give now. A list that
    /// misses a change cannot be told from a complete one: prefer
    /// [`JumpTables::apply_changes`], whose changes say what they cover.
    ///
    /// # Errors
    /// [`Error::OtherWorld`] for another world than the one they were built from (when it
    /// tells its identity); [`Error::InvalidSetting`] for a world whose bounds differ from
    /// the tables'. The tables are unchanged then.
    pub fn update<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changed: impl IntoIterator<Item = IVec3>,
    ) -> Result<()> {
        self.check_update(world)?;
        let changed: Vec<IVec3> = changed.into_iter().collect();
        match self.agent.width {
            1 => self.refill(world, &changed),
            width => self.refill(&BoxView::new(world, width), &changed),
        }
        self.source = Revision::of(world);
        Ok(())
    }

    /// [`JumpTables::update`] with the changes `world` reported
    /// ([`ChunkedWorld::take_changes`](crate::world::ChunkedWorld::take_changes), taken
    /// after the build or the last update): they must cover every change since.
    ///
    /// # Errors
    /// As [`JumpTables::update`]; [`Error::OtherWorld`] for changes of another world;
    /// [`Error::StaleJumpTables`] for changes that start after the version the tables
    /// describe (some were missed); [`Error::InvalidSetting`] when chunk columns were loaded
    /// or unloaded (build the tables again). The tables are unchanged then.
    pub fn apply_changes<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        changes: &Changes,
    ) -> Result<()> {
        if changes.has_column_changes() {
            return Err(Error::InvalidSetting(
                "jump tables follow changed blocks, not loaded or unloaded chunk columns: \
                 build them again"
                    .into(),
            ));
        }
        let Some((span, built)) = changes.span.zip(self.source) else {
            return self.update(world, changes.positions());
        };
        if span.world != built.world {
            return Err(Error::OtherWorld {
                what: "jump tables (given the changes of another world)",
                built: built.world.get(),
                given: Some(span.world.get()),
            });
        }
        if span.since > built.version {
            return Err(Error::StaleJumpTables {
                built: built.version,
                now: span.until,
            });
        }
        self.update(world, changes.positions())?;
        // The tables describe the version the changes reach: when the world has moved on
        // since they were taken, the tables are stale until the next changes are applied.
        self.source = Some(Revision {
            world: built.world,
            version: built.version.max(span.until),
        });
        Ok(())
    }

    /// [`Error::OtherWorld`] or [`Error::InvalidSetting`] when `world` is not one the tables
    /// can follow.
    fn check_update<W: VoxelWorld + ?Sized>(&self, world: &W) -> Result<()> {
        if let Some(built) = self.source {
            match Revision::of(world) {
                Some(now) if now.world == built.world => {}
                given => {
                    return Err(Error::OtherWorld {
                        what: "jump tables",
                        built: built.world.get(),
                        given: given.map(|now| now.world.get()),
                    });
                }
            }
        }
        let view_bounds = match self.agent.width {
            1 => world.bounds(),
            width => BoxView::new(world, width).bounds(),
        };
        if view_bounds != Some(self.bounds) {
            return Err(Error::InvalidSetting(format!(
                "jump tables of a world of bounds {:?} cannot follow one of bounds {view_bounds:?}",
                self.bounds
            )));
        }
        Ok(())
    }

    /// Fills again what the blocks `changed` of `world` (the world as the body sees it) can
    /// change.
    fn refill<W: VoxelWorld + ?Sized>(&mut self, world: &W, changed: &[IVec3]) {
        let (width, height) = (self.agent.width as i32, self.agent.height as i32);
        let (min, size) = (self.bounds.min, self.size);
        // The cells (relative) whose body covers a changed block or stands just above it (a
        // fence reaches into the cell above: a wide body's view refuses a place over one),
        // and their columns.
        let mut columns = AHashSet::new();
        let mut fits_changed = Vec::new();
        for &block in changed {
            // Computed in i64: a block may lie anywhere, near i32's ends too.
            let r = block.as_i64vec3() - min.as_i64vec3();
            for dx in 0..i64::from(width) {
                for dz in 0..i64::from(width) {
                    for dy in -1..i64::from(height) {
                        let cell = r - glam::I64Vec3::new(dx, dy, dz);
                        if cell.cmpge(glam::I64Vec3::ZERO).all()
                            && cell.cmplt(size.as_i64vec3()).all()
                        {
                            let cell = cell.as_ivec3();
                            columns.insert((cell.x, cell.z));
                            fits_changed.push(cell);
                        }
                    }
                }
            }
        }
        for &(x, z) in &columns {
            self.fits.refill_column(world, min.x + x, min.z + z);
        }
        // The cells whose neighbourhood changed.
        let mut around_changed = AHashSet::new();
        for &cell in &fits_changed {
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        let at = cell + IVec3::new(dx, dy, dz);
                        if !self.inside(at) || around_changed.contains(&at) {
                            continue;
                        }
                        let index = self.relative_index(at);
                        let around = self.fits.around_filled(min + at);
                        if self.cells[index].around != around {
                            self.cells[index].around = around;
                            around_changed.insert(at);
                        }
                    }
                }
            }
        }
        let forced = forced_tables();
        // Face lines through every changed neighbourhood, noting the cells whose face jumps
        // changed between ending at a forced move and not.
        let mut lines = AHashSet::new();
        let (mut hits_changed, mut cells) = (Vec::new(), Vec::new());
        for &at in &around_changed {
            for (dir, &d) in FREE_DIRECTIONS.iter().enumerate() {
                if rank(d) == 1 && lines.insert((dir, self.line_start(at, dir))) {
                    self.fill_line(forced, dir, at, Some(&mut cells));
                    hits_changed.extend(cells.drain(..).map(|cell| (cell, dir)));
                }
            }
        }
        // Edge entries read their cell's and the next cell's neighbourhood, and the next
        // cell's face jumps along the edge's axes: those whose inputs changed are filled
        // again, and from each the cells behind it along the line while their entries change
        // (an entry reads nothing else but the next one's).
        let mut starts = Vec::new();
        for &at in &around_changed {
            for (dir, &d) in FREE_DIRECTIONS.iter().enumerate() {
                if rank(d) == 2 {
                    starts.extend(self.start_key(dir, at));
                    starts.extend(self.start_key(dir, at - d));
                }
            }
        }
        let edges: Vec<(usize, [usize; 2])> = (0..26)
            .filter_map(|dir| self.sub_faces[dir].map(|faces| (dir, faces)))
            .collect();
        for &(cell, face) in &hits_changed {
            // The edges with this face among their axes.
            for &(dir, faces) in &edges {
                if faces.contains(&face) {
                    starts.extend(self.start_key(dir, cell - FREE_DIRECTIONS[dir]));
                }
            }
        }
        // Further along their lines first, so that a walk back meets the entries ahead of it
        // final and stops where they are unchanged.
        starts.sort_unstable();
        starts.dedup();
        let (columns, rows) = (
            self.size.z as usize,
            self.size.y as usize * self.size.z as usize,
        );
        for key in starts {
            let index = (key & START_INDEX) as usize;
            let r = IVec3::new(
                (index / rows) as i32,
                (index / columns % self.size.y as usize) as i32,
                (index % columns) as i32,
            );
            self.fill_back(forced, (key >> START_DIR) as usize, r);
        }
    }

    /// The key of the walk back along `dir` from the relative position `at`: by direction,
    /// then further along it first, then by cell; `None` (no walk) outside the bounds.
    fn start_key(&self, dir: usize, at: IVec3) -> Option<u64> {
        if !self.inside(at) {
            return None;
        }
        // The sides of the bounds add up to at most their volume + 2 (at most 2^24 + 2): the
        // dot product of a relative position with a direction lies within that of 0, so
        // `behind` takes at most 26 bits.
        let behind = (1i64 << 25) - i64::from(at.dot(FREE_DIRECTIONS[dir]));
        Some(
            (dir as u64) << START_DIR
                | (behind as u64) << START_INDEX.count_ones()
                | self.relative_index(at) as u64,
        )
    }

    /// Fills the entry of `dir` at the relative position `from` again, and those of the
    /// cells behind it along `dir` while they change.
    fn fill_back(&mut self, forced: &Tables, dir: usize, from: IVec3) {
        let (slot, step) = (self.slot[dir], self.step[dir]);
        let mut index = self.relative_index(from);
        let entry = self.entry_of(forced, index, from, dir);
        if self.cells[index].jumps[slot] == entry {
            return;
        }
        self.cells[index].jumps[slot] = entry;
        // The cells behind `from` inside the bounds, whose next cells lie inside too.
        for _ in 0..self.steps_back(from, dir) {
            index = index.wrapping_add_signed(-step);
            let entry = self.entry_inside(forced, index, dir);
            if self.cells[index].jumps[slot] == entry {
                return;
            }
            self.cells[index].jumps[slot] = entry;
        }
    }

    /// The first cell (relative) of the line along `dir` through the relative position `at`:
    /// the one whose step back along `dir` leaves the bounds.
    fn line_start(&self, at: IVec3, dir: usize) -> IVec3 {
        at - FREE_DIRECTIONS[dir] * self.steps_back(at, dir)
    }

    /// How many cells of the line along `dir` lie behind the relative position `at` inside
    /// the bounds.
    fn steps_back(&self, at: IVec3, dir: usize) -> i32 {
        let d = FREE_DIRECTIONS[dir];
        (0..3)
            .filter(|&axis| d[axis] != 0)
            .map(|axis| {
                if d[axis] > 0 {
                    at[axis]
                } else {
                    self.size[axis] - 1 - at[axis]
                }
            })
            .min()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::agent::Agent;
    use crate::world::{Block, Bounds, ChunkedWorld, DenseWorld};

    /// After rounds of random edits (single blocks and small boxes of solid, air, water and
    /// fences, at the bounds' edges too), tables brought up to date equal a fresh build, cell by
    /// cell (neighbourhoods and every face and edge entry), for fliers and swimmers one to
    /// three cells tall and two wide, at negative and positive offsets, on worlds with lines
    /// of more than 127 steps; and they answer for the world's new version.
    #[test]
    fn updated_tables_equal_a_fresh_build_after_random_edits() {
        let mut next = crate::testing::xorshift(0xD1B5_4A32_D192_ED03);
        let (mut edits, mut cells_changed) = (0, 0);
        for round in 0..12u32 {
            let min = IVec3::new(
                (next() % 300) as i32 - 150,
                (next() % 300) as i32 - 150,
                (next() % 300) as i32 - 150,
            );
            let mut size = IVec3::new(
                6 + (next() % 20) as i32,
                6 + (next() % 20) as i32,
                6 + (next() % 20) as i32,
            );
            if round % 3 == 0 {
                size[(round / 3 % 3) as usize] = 140 + (next() % 40) as i32;
            }
            let mut world = ChunkedWorld::with_bounds(Bounds::new(min, min + size)).unwrap();
            let solid = next() % 8;
            for x in 0..size.x {
                for y in 0..size.y {
                    for z in 0..size.z {
                        let roll = next() % 100;
                        let block = if roll < solid {
                            Block::Solid
                        } else if roll < solid + 3 {
                            Block::Fence
                        } else if roll < 40 {
                            Block::Water
                        } else {
                            continue;
                        };
                        world.set(min + IVec3::new(x, y, z), block).unwrap();
                    }
                }
            }
            let agent = match round % 6 {
                1 => Agent::swimmer(2),
                5 => Agent::swimmer(2).with_width(2),
                2 => Agent::flier(3),
                3 => Agent::flier(2).with_width(2),
                4 => Agent::swimmer(1),
                _ => Agent::flier(1),
            };
            world.track_changes(true);
            let mut tables = JumpTables::build(&world, agent).unwrap();
            for _ in 0..4 {
                let before = tables.cells.clone();
                for _ in 0..=next() % 6 {
                    // A box of 1 to 3 cells a side, some reaching past the bounds.
                    let corner = min - 1
                        + IVec3::new(
                            (next() % (size.x as u64 + 2)) as i32,
                            (next() % (size.y as u64 + 2)) as i32,
                            (next() % (size.z as u64 + 2)) as i32,
                        );
                    let side = IVec3::new(
                        1 + (next() % 3) as i32,
                        1 + (next() % 3) as i32,
                        1 + (next() % 3) as i32,
                    );
                    let kinds = [Block::Solid, Block::Air, Block::Water, Block::Fence];
                    let block = kinds[(next() % 4) as usize];
                    for x in 0..side.x {
                        for y in 0..side.y {
                            for z in 0..side.z {
                                let p = corner + IVec3::new(x, y, z);
                                if world.bounds().is_some_and(|b| b.contains(p)) {
                                    world.set(p, block).unwrap();
                                    edits += 1;
                                }
                            }
                        }
                    }
                }
                let changes = world.take_changes();
                tables.apply_changes(&world, &changes).unwrap();
                tables.check_current(&world).unwrap();
                let fresh = JumpTables::build(&world, agent).unwrap();
                let first_wrong =
                    (0..fresh.cells.len()).find(|&i| tables.cells[i] != fresh.cells[i]);
                assert_eq!(
                    first_wrong.map(|i| (i, tables.cells[i], fresh.cells[i])),
                    None,
                    "{agent:?} in {size} at {min}"
                );
                cells_changed += (0..before.len())
                    .filter(|&i| before[i] != fresh.cells[i])
                    .count();
            }
        }
        assert!(
            edits > 500 && cells_changed > 5_000,
            "{edits} edits, {cells_changed} cells changed"
        );
    }

    /// Updates it cannot make are typed errors, and leave the tables as they were: changes
    /// of another world, changes that start after a missed report, a world of other bounds.
    /// Tables brought up to a version the world has since left say they are stale.
    #[test]
    fn updates_it_cannot_make_are_typed_errors() {
        let bounds = Bounds::new(IVec3::splat(-4), IVec3::splat(12));
        let mut world = ChunkedWorld::with_bounds(bounds).unwrap();
        let mut other = ChunkedWorld::with_bounds(bounds).unwrap();
        world.track_changes(true);
        other.track_changes(true);
        let mut tables = JumpTables::build(&world, Agent::flier(1)).unwrap();
        let kept = tables.cells.clone();
        other.set(IVec3::ONE, Block::Solid).unwrap();
        let theirs = other.take_changes();
        assert!(matches!(
            tables.apply_changes(&world, &theirs),
            Err(Error::OtherWorld { .. })
        ));
        assert!(matches!(
            tables.update(&other, [IVec3::ONE]),
            Err(Error::OtherWorld { .. })
        ));
        world.set(IVec3::ONE, Block::Solid).unwrap();
        let _missed = world.take_changes();
        world.set(IVec3::ZERO, Block::Solid).unwrap();
        let later = world.take_changes();
        assert!(matches!(
            tables.apply_changes(&world, &later),
            Err(Error::StaleJumpTables { .. })
        ));
        assert_eq!(tables.cells, kept);
        // Changes taken before the world moved on bring the tables to the version they reach,
        // which is stale until the later changes are applied too.
        let mut tables = JumpTables::build(&world, Agent::flier(1)).unwrap();
        world.set(IVec3::new(2, 3, 4), Block::Solid).unwrap();
        let first = world.take_changes();
        world.set(IVec3::new(5, 3, 4), Block::Water).unwrap();
        tables.apply_changes(&world, &first).unwrap();
        assert!(matches!(
            tables.check_current(&world),
            Err(Error::StaleJumpTables { .. })
        ));
        let second = world.take_changes();
        tables.apply_changes(&world, &second).unwrap();
        tables.check_current(&world).unwrap();
        assert_eq!(
            tables.cells,
            JumpTables::build(&world, Agent::flier(1)).unwrap().cells
        );
        // A world that cannot tell its identity: only its bounds are checked.
        let dense = DenseWorld::new(IVec3::splat(8)).unwrap();
        let mut plain = JumpTables::build(&dense, Agent::flier(1)).unwrap();
        let smaller = DenseWorld::new(IVec3::splat(7)).unwrap();
        assert!(matches!(
            plain.update(&smaller, [IVec3::ONE]),
            Err(Error::InvalidSetting(_))
        ));
        plain.update(&dense, [IVec3::ONE]).unwrap();
    }
}
