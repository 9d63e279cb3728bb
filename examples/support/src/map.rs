//! [`TopDownMap`]: a picture of a terrain seen from above, with the searches' effort, the
//! routes and their numbered ends drawn over it.

use voxnav::Block;
use voxnav::IVec3;
use voxnav::terrain::Terrain;

use super::picture::{BLACK, Picture, Rgb, mix, shade};

/// The tint over every column in which some search expanded a node: violet, a hue no
/// terrain has, mixed [`EXPLORED_ALPHA`] into the terrain's colour.
pub const EXPLORED_TINT: Rgb = [140, 50, 220];
/// How much of [`EXPLORED_TINT`] goes into an explored column's colour.
pub const EXPLORED_ALPHA: f32 = 0.45;
/// The route colours, taken in turn by route number (route `n` gets
/// `ROUTE_COLOURS[(n - 1) % 6]`): bright colours, each outlined in black.
pub const ROUTE_COLOURS: [Rgb; 6] = [
    [255, 225, 0],
    [0, 230, 255],
    [255, 70, 70],
    [255, 255, 255],
    [90, 255, 90],
    [255, 150, 235],
];
/// Half the width of a route line, in pixels, without its outline.
const ROUTE_RADIUS: f32 = 1.5;
/// The width of the black outline round routes and markers, in pixels.
const OUTLINE: f32 = 1.0;
/// The radius of a start's disc (a goal's square has the same half-width), in pixels.
const MARKER_RADIUS: f32 = 5.0;

/// One route on the map: its number (shown at both ends), its ends and its feet positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapRoute {
    /// The number drawn beside both ends (and printed in the example's table).
    pub number: usize,
    /// Where the search started: a disc.
    pub start: IVec3,
    /// Where it was meant to end: a square.
    pub goal: IVec3,
    /// The route (empty when none was found; a partial route ends short of the goal).
    pub path: Vec<IVec3>,
}

/// A [`Terrain`] seen from above, `scale` pixels per column: land shaded by height (muted,
/// so that what is drawn over it stands out) and lit from the north-west, water blue, lava
/// orange; columns where a search expanded a node tinted violet; routes as thick outlined
/// lines in [`ROUTE_COLOURS`], each start a disc and each goal a square in its route's colour,
/// both labelled with the route's number.
#[derive(Debug, Clone)]
pub struct TopDownMap {
    columns_x: i32,
    columns_z: i32,
    scale: u32,
    ground: Vec<Rgb>,
    explored: Vec<bool>,
    routes: Vec<MapRoute>,
}

impl TopDownMap {
    /// The map of `terrain`, `scale` pixels per column (0 is taken as 1).
    #[must_use]
    pub fn new(terrain: &Terrain, scale: u32) -> Self {
        let size = terrain.size();
        let span = size.y.max(1) as f32;
        let mut ground = Vec::with_capacity(size.x as usize * size.z as usize);
        for z in 0..size.z {
            for x in 0..size.x {
                ground.push(match terrain.column_liquid(x, z) {
                    Some((Block::Water, low, high)) => {
                        // Deeper water is darker.
                        let depth = (high - low).min(12) as f32 / 12.0;
                        shade([90, 140, 215], 1.0 - 0.4 * depth)
                    }
                    Some((Block::Lava, ..)) => [240, 120, 30],
                    _ => {
                        let top = terrain.top(x, z).unwrap_or(0);
                        // Light from the north-west: slopes facing it are brighter.
                        let west = terrain.top(x - 1, z).unwrap_or(top);
                        let north = terrain.top(x, z - 1).unwrap_or(top);
                        let relief = ((top - west) + (top - north)) as f32 * 0.06;
                        shade(
                            land_colour(top as f32 / span),
                            1.0 + relief.clamp(-0.35, 0.35),
                        )
                    }
                });
            }
        }
        Self {
            columns_x: size.x,
            columns_z: size.z,
            scale: scale.max(1),
            explored: vec![false; ground.len()],
            ground,
            routes: Vec::new(),
        }
    }

    fn column(&self, x: i32, z: i32) -> Option<usize> {
        ((0..self.columns_x).contains(&x) && (0..self.columns_z).contains(&z))
            .then(|| z as usize * self.columns_x as usize + x as usize)
    }

    /// Marks the column of every position in `cells` as explored (positions outside the
    /// map are ignored).
    pub fn add_explored(&mut self, cells: impl IntoIterator<Item = IVec3>) {
        for cell in cells {
            if let Some(column) = self.column(cell.x, cell.z) {
                self.explored[column] = true;
            }
        }
    }

    /// How many columns are marked explored.
    #[must_use]
    pub fn explored_columns(&self) -> usize {
        self.explored.iter().filter(|&&e| e).count()
    }

    /// Adds a route, drawn over every tint.
    pub fn add_route(&mut self, route: MapRoute) {
        self.routes.push(route);
    }

    /// The centre of `feet`'s column, in pixels.
    fn centre(&self, feet: IVec3) -> (f32, f32) {
        let scale = self.scale as f32;
        ((feet.x as f32 + 0.5) * scale, (feet.z as f32 + 0.5) * scale)
    }

    /// Draws the map: terrain and tints, then every route's outline and line, then the
    /// markers, then the numbers (so no route hides a number).
    #[must_use]
    pub fn render(&self) -> Picture {
        let (columns_x, columns_z) = (self.columns_x as u32, self.columns_z as u32);
        let mut picture = Picture::from_cells(columns_x, columns_z, self.scale, |x, z| {
            let column = z as usize * columns_x as usize + x as usize;
            let colour = self.ground[column];
            if self.explored[column] {
                mix(colour, EXPLORED_TINT, EXPLORED_ALPHA)
            } else {
                colour
            }
        });
        for route in &self.routes {
            self.draw_line(&mut picture, &route.path, ROUTE_RADIUS + OUTLINE, BLACK);
        }
        for route in &self.routes {
            self.draw_line(
                &mut picture,
                &route.path,
                ROUTE_RADIUS,
                route_colour(route.number),
            );
        }
        for route in &self.routes {
            let colour = route_colour(route.number);
            let (sx, sy) = self.centre(route.start);
            picture.disc(sx, sy, MARKER_RADIUS + OUTLINE, BLACK);
            picture.disc(sx, sy, MARKER_RADIUS, colour);
            let (gx, gy) = self.centre(route.goal);
            let half = MARKER_RADIUS.round() as i64;
            let (gx, gy) = (gx.floor() as i64, gy.floor() as i64);
            picture.fill_rect(
                gx - half - 1,
                gy - half - 1,
                2 * half + 3,
                2 * half + 3,
                BLACK,
            );
            picture.fill_rect(gx - half, gy - half, 2 * half + 1, 2 * half + 1, colour);
        }
        let text_size = if picture.width().min(picture.height()) >= 300 {
            2
        } else {
            1
        };
        let mut placed = Vec::with_capacity(2 * self.routes.len());
        for route in &self.routes {
            let number = route.number.to_string();
            for (end, other) in [(route.start, route.goal), (route.goal, route.start)] {
                let corner = self.label_corner(&picture, &placed, (end, other), &number, text_size);
                let (w, h) = picture.label(corner.0, corner.1, &number, text_size);
                placed.push((corner.0, corner.1, w, h));
            }
        }
        picture
    }

    fn draw_line(&self, picture: &mut Picture, path: &[IVec3], radius: f32, colour: Rgb) {
        if let [only] = path {
            let (x, y) = self.centre(*only);
            picture.disc(x, y, radius, colour);
        }
        for pair in path.windows(2) {
            picture.line(self.centre(pair[0]), self.centre(pair[1]), radius, colour);
        }
    }

    /// Where a number label of `end` goes: beside its marker, preferably on the side away
    /// from the route's other end (so the label does not sit on the route's first steps),
    /// turning by eighths of a circle until it overlaps no label in `placed` (boxes as
    /// `(left, top, width, height)`), inside the picture.
    fn label_corner(
        &self,
        picture: &Picture,
        placed: &[(i64, i64, i64, i64)],
        (end, other): (IVec3, IVec3),
        text: &str,
        size: i64,
    ) -> (i64, i64) {
        let (w, h) = Picture::text_size(text, size);
        let (w, h) = ((w + 2 * size + 2) as f32, (h + 2 * size + 2) as f32);
        let (x, y) = self.centre(end);
        let (ox, oy) = self.centre(other);
        let away = if (x - ox).abs() + (y - oy).abs() < 1.0 {
            -std::f32::consts::FRAC_PI_4
        } else {
            (y - oy).atan2(x - ox)
        };
        let corner_at = |angle: f32| {
            let (dx, dy) = (angle.cos(), angle.sin());
            // Far enough along (dx, dy) that the box clears the marker whatever the angle.
            let reach = MARKER_RADIUS + OUTLINE + 2.0 + 0.5 * (w * dx.abs() + h * dy.abs());
            let (cx, cy) = (x + dx * reach, y + dy * reach);
            let left = (cx - w / 2.0).clamp(0.0, (picture.width() as f32 - w).max(0.0));
            let top = (cy - h / 2.0).clamp(0.0, (picture.height() as f32 - h).max(0.0));
            (left as i64, top as i64)
        };
        let overlaps = |(left, top): (i64, i64)| {
            placed.iter().any(|&(l, t, pw, ph)| {
                left < l + pw && l < left + w as i64 && top < t + ph && t < top + h as i64
            })
        };
        [0, 1, -1, 2, -2, 3, -3, 4]
            .into_iter()
            .map(|turn| corner_at(away + turn as f32 * std::f32::consts::FRAC_PI_4))
            .find(|&corner| !overlaps(corner))
            .unwrap_or_else(|| corner_at(away))
    }
}

/// The colour of route `number`.
#[must_use]
pub fn route_colour(number: usize) -> Rgb {
    ROUTE_COLOURS[number.saturating_sub(1) % ROUTE_COLOURS.len()]
}

/// Land by height (as a share of the world's height): green lowlands, olive hills, grey
/// rock, white peaks, all muted toward grey so that the tint and the routes stand out.
fn land_colour(level: f32) -> Rgb {
    const STOPS: [(f32, [f32; 3]); 4] = [
        (0.2, [110.0, 150.0, 100.0]),
        (0.45, [150.0, 160.0, 115.0]),
        (0.65, [160.0, 150.0, 135.0]),
        (0.8, [235.0, 235.0, 235.0]),
    ];
    let mut colour = STOPS[0].1;
    for pair in STOPS.windows(2) {
        let ((from, low), (to, high)) = (pair[0], pair[1]);
        if level >= from {
            let t = ((level - from) / (to - from)).min(1.0);
            colour = std::array::from_fn(|i| low[i] + (high[i] - low[i]) * t);
        }
    }
    colour.map(|c| c as u8)
}

#[cfg(test)]
mod tests {
    use voxnav::terrain::{TerrainConfig, generate_terrain_with_heights};

    use super::*;

    /// The former doc example (doc tests do not run in a module of the examples): a world
    /// 32 columns a side drawn at 2 pixels per column is 64 pixels a side.
    #[test]
    fn a_map_is_scale_pixels_per_column() {
        let terrain =
            generate_terrain_with_heights(&TerrainConfig::default().with_size(32, 48, 32)).unwrap();
        let picture = TopDownMap::new(&terrain, 2).render();
        assert_eq!((picture.width(), picture.height()), (64, 64));
    }

    #[test]
    fn tints_routes_markers_and_labels_change_their_pixels_only() {
        let terrain =
            generate_terrain_with_heights(&TerrainConfig::default().with_size(64, 48, 64)).unwrap();
        let mut map = TopDownMap::new(&terrain, 2);
        let plain = map.render();
        map.add_explored([IVec3::new(40, 5, 40), IVec3::new(40, 6, 40)]);
        let tinted = map.render();
        assert_ne!(tinted.get(80, 80), plain.get(80, 80));
        assert_eq!(
            tinted.get(81, 81),
            tinted.get(80, 80),
            "the whole 2 x 2 square"
        );
        assert_eq!(tinted.get(100, 80), plain.get(100, 80));
        assert_eq!(map.explored_columns(), 1);

        let path: Vec<IVec3> = (5..=25).map(|x| IVec3::new(x, 9, 10)).collect();
        map.add_route(MapRoute {
            number: 2,
            start: path[0],
            goal: path[path.len() - 1],
            path,
        });
        let drawn = map.render();
        let colour = route_colour(2);
        // The route's middle (its centre line between pixel rows 20 and 21): its colour,
        // 1.5 pixels either side, outlined in black.
        for y in 19..=22 {
            assert_eq!(drawn.get(31, y), Some(colour), "row {y}");
        }
        assert_eq!(drawn.get(31, 18), Some(BLACK));
        assert_eq!(drawn.get(31, 23), Some(BLACK));
        assert_eq!(drawn.get(31, 24), plain.get(31, 24));
        // The start's disc and the goal's square.
        assert_eq!(drawn.get(11, 17), Some(colour));
        assert_eq!(drawn.get(55, 16), Some(colour));
        // Both numbers: a white label box beside each end, away from the route.
        let whites = |x0: i64, x1: i64| {
            (x0..x1)
                .flat_map(|x| (0..64).map(move |y| (x, y)))
                .filter(|&(x, y)| drawn.get(x, y) == Some(super::super::picture::WHITE))
                .count()
        };
        assert!(whites(0, 10) > 20, "the start's label lies west of it");
        assert!(whites(58, 70) > 20, "the goal's label lies east of it");
        assert_eq!(drawn.get(100, 100), plain.get(100, 100));
    }
}
