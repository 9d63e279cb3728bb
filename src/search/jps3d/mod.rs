//! Jump point search for fliers and swimmers: the answers of the flier A* ([`Pathfinder`]
//! with a [`Movement::Fly`](crate::Movement::Fly) or [`Movement::Swim`](crate::Movement::Swim)
//! agent) from far fewer explicit nodes where the world is open.
//!
//! ## Why it is exact
//!
//! The rules are those of [`crate::moves::fly`]: 26 neighbours, a move legal only when the
//! whole box spanned by the body at both ends is allowed. Call a move `e` after an arrival
//! `d` **natural** when every axis `e` changes, `d` changes the same way (`e` is a non-empty
//! subset of `d`'s components: a corner arrival has 7 natural moves, an edge arrival 3, a
//! face arrival 1). A route is **canonical** when, at every position but the start, the move
//! out is natural for the move in or **forced**: the two steps `p -> c -> m` (`p = c - d`,
//! `m = c + e`) cannot be replaced by a better route from `p` to `m` inside the
//! neighbourhood of `c`. The routes tried are the canonical steps (the move `sign(d + e)`,
//! then, if the displacement is not used up, the move `sign` of the rest), which all lie in
//! the box of `p` and `m`, and the pairs of a move with as many components as `e` then one
//! with as many as `d`, when `e` has more: the same cost, the move with more components
//! first. The canonical steps never cost more, and when they cost the same they have fewer
//! moves or put the move with more components first: [`JumpSearch::new`] checks these two
//! inequalities for all 26 x 26 pairs of the given [`MoveCosts`] (octile costs pass) and
//! refuses costs that break them. So replacing non-canonical pairs one by one ends (cost, then
//! move count, then the sequence of component counts, a bounded lexicographic order, improve
//! every time) in a canonical route no dearer than the first: every goal has an optimal
//! canonical route. The second kind of replacement forces fewer moves (a face arrival beside
//! a blocked edge line, say, whose corner move is blocked but whose edge-then-face route is
//! not): 6% fewer expansions on the large set of `benches/jps3d.rs`, 21% on `Simple`. Adding
//! every other route of two moves in the neighbourhood that is better under octile costs (up
//! to four distinct sets of positions; costs under which one is not better refused) gave
//! 7 207, 503 and 33 expansions per query against 7 224, 505 and 34, for 374.3 M, 71.7 M and
//! 22.6 M instructions against 373.5 M, 71.5 M and 23.1 M (callgrind, tables): not kept.
//!
//! The search is A* over explicit positions, run by the one search loop of the crate
//! ([`crate::search`]) with the jumps as its move source. Expanding a position jumps in each
//! of its natural and forced directions (all 26 from the start): a jump steps along its
//! direction and stops (returning the position) at the goal, at a position with a forced
//! move, or at a position from which a jump in a natural sub-direction (recursively) returns
//! something; it returns nothing when the next move is illegal. Along an optimal canonical route, the jump from one
//! of its positions in the route's next direction therefore returns a later position of the
//! route (the next turn at the latest), at the route's cost. A jump may also stop early when
//! its step limit ([`JUMP_LIMITS`]) runs out: that only makes an intermediate position
//! explicit, which the argument allows.
//!
//! The world is read only as "the body fits with its feet here" bits: a move `d` from `p` is
//! legal exactly when the body fits at `p + s` for every `s` made of some of `d`'s components
//! (the box of the move is the union of those bodies), so the 27 bits around a position decide
//! every move from it and every canonical replacement through it, for bodies of any height.
//!
//! Before any search, the canonical route itself (a corner run, an edge run and a face run, in
//! each of their orders) is tried: when one order is legal move by move, its cost is the
//! estimate, which no route beats, and it is returned at once.
//!
//! Two routes may reach a position at the same cost from different directions, and each needs
//! its own natural moves: a position keeps the set of arrival directions it was reached by at
//! its best cost, and is expanded again (for all of them: those done before give nothing new)
//! when an equal-cost arrival brings one after its expansion. Such re-expansions are rare
//! (under 2% of the expansions on the large set of `benches/jps3d.rs`), and one set keeps a
//! record at 16 bytes, with its cost in 32 bits (a search that meets a dearer route is left to
//! the flier A*); a set pending and a set expanded, a copy of the "fits" bits around the
//! position and a 64-bit cost made it 32. Keeping one direction per record instead (any other
//! arrival at the same cost expanding every direction) expanded 44% more positions there.
//!
//! ## Uniform costs only, checked on the answer
//!
//! The argument needs every move to cost its step alone, with no
//! [`VoxelWorld::extra_cost`]. The search assumes that and then checks the route it found: when
//! every cell it enters has no extra cost, its cost is the uniform optimum, and no route can
//! cost less than that with extra costs added (they are never negative), so it is optimal. When
//! a cell of the route has an extra cost, the search runs the flier A* instead and returns its
//! answer. Reachability does not depend on costs, so "unreachable" needs no check.
//!
//! ## Speed
//!
//! Where it stands (2026-11-29, a quiet 2-core machine; per query, three interleaved runs of
//! `JPS3D_SET=... JPS3D_ENGINE=astar|jps|tables` on the `jps3d` bench binary; instructions of
//! its two passes by callgrind, `--toggle-collect='*flying::run_voxnav'` and the same for
//! `run_jump` and `run_jump_tables`: a pattern ending in `*` also matches the inner
//! `run_jumps`, whose entry turns the count off again):
//!
//! | set | flier A* | jump search | with tables |
//! |---|---|---|---|
//! | `Simple` | 104.4-105.5 us; 632.1 M | 19.4-20.0 us (5.3x); 112.6 M (5.6x) | 5.2-5.3 us (20x); 25.8 M (24.5x) |
//! | small pillars | 330-338 us | 104-105 us (3.2x) | 39-55 us (6.2x-8.6x) |
//! | large pillars | 3 561-3 599 us; 3 045 M | 1 549-1 588 us (2.3x); 1 204 M (2.5x) | 717-725 us (4.9x-5.0x); 383.0 M (8.0x) |
//! | large, `Simple` tiled | 9 144-9 770 us | 665-683 us (14x) | 21.9-23.7 us (about 400x) |
//!
//! The rest of this section is the history that led there.
//!
//! In open space a diagonal jump's sub-jumps end only at walls, so a jump is cut short by its
//! limit ([`JUMP_LIMITS`], 0: no position is read ahead) and the search is A* over the
//! canonical moves: as many expansions as the flier A*, each relaxing far fewer moves. Records
//! live in the cell table of the flier A* (stamped per search, nothing cleared; with tables, in
//! a dense store, `dense.rs`), the open set is its radix heap, and the world is read through
//! the per-search "fits" words.
//! Instructions against the flier A* on the same queries (`cargo bench --bench jps3d`,
//! callgrind on `run_astar` / `run_jps`, engines cold: before the bench primed them):
//!
//! | set | flier A* | jump search | scanned straight jumps | with face tables only |
//! |---|---|---|---|---|
//! | `Simple`, 300 problems | 318 M (726 expansions per query) | 197 M (759), 1.61x | 421 M (122) | 59.7 M (122), 5.32x |
//! | pillars, 96 x 48 x 96, 100 pairs | 368 M (2 253) | 214 M (2 521), 1.72x | 603 M (943) | 127 M (943), 2.89x |
//! | large, 256 x 128 x 256, 40 pairs | 1 525 M (24 075) | 901 M (27 524), 1.69x | 3 575 M (13 951) | 699 M (13 951), 2.18x |
//!
//! With face and edge tables ([`JumpTables`] now), both engines warm (the bench answers the
//! set once untimed first), `valgrind --tool=callgrind --cache-sim=yes --LL=33554432,16,64
//! --toggle-collect='*run_astar*' --toggle-collect='*run_jps*'` on the bench binary with
//! `JPS3D_SET` and `JPS3D_ENGINE` (misses per query: D1, and LL of 32 MB as this machine's
//! L3):
//!
//! | set | flier A*: instructions; D1 / LL misses | the same from the jump search's end | with tables | ratios | expansions: A*, A* from that end, tables | build, bytes | update after one block |
//! |---|---|---|---|---|---|---|---|
//! | `Simple` | 314.9 M; 3 130 / 14 | 61.5 M; 322 / 9.9 | 15.5 M; 137 / 0.9 | 20.3x, **3.96x** | 726 / 141 / 15 | 673 M, 35.5 MB | 14.7 M |
//! | pillars | 364.2 M; 11 852 / 95 | 178.5 M; 4 817 / 85 | 41.8 M; 1 129 / 0.0 | 8.70x, **4.27x** | 2 253 / 1 151 / 261 | 195 M, 10.8 MB | 2.7 M |
//! | large, pillars | 1 520 M; 168 420 / 597 | 1 041 M; 112 509 / 530 | 266.5 M; 21 925 / 682 | 5.70x, **3.90x** | 24 075 / 16 777 / 5 054 | 3 492 M, 204.5 MB | 5.8 M |
//! | large, `Simple` tiled | 3 867 M; 460 991 / 6 840 | 199.6 M; 17 815 / 494 | 13.6 M; 966 / 0.1 | 284x, **14.7x** | 52 825 / 2 985 / 43 | 5 971 M, 319.1 MB | 57.4 M |
//!
//! Those are with the records in the cell table. In the dense store since (`dense.rs`), with
//! an LL of 4 MB standing for the L2 (`--LL=4194304,16,64`), on the large set's 40 queries:
//! instructions 266.6 M to 265.9 M, D1 read misses 783 k to 1 039 k (L2 hits at the hash's
//! slots and the records), LL read misses 269 k to 225 k (117 k to 71 k at the landings'
//! records); `Simple` 15.24 M to 14.98 M, the pillars 41.69 M to 41.68 M (LL read misses 8.3 k
//! to 0). Wall clock, a guide only (medians of 12 interleaved runs, load 4.3 to 4.6): 1 368 to
//! 1 242 us per query on the large set, 56.0 to 49.7 on the pillars, 6.4 to 6.0 on `Simple`.
//! Records in the hash's slots themselves (16 bytes, a node its slot, a search run again with
//! twice the slots once half are taken) read 259.8 M instructions but 272 k LL read misses and
//! were slower (1 416 against 1 313 us): a few queries (up to 85 000 records, most make a few
//! hundred) size the slots, and every query's probes then spread over all of them. Loads of
//! table cells ahead of their expansion, tried with the dense store: see `dense.rs`. Quiet
//! (load 1.1), the two bench binaries interleaved, three runs each: large set 1 310-1 388 to
//! 1 132-1 196 us per query against the flier A*'s 3 566-3 634 (2.6x-2.7x to 3.0x-3.2x). The
//! loop then run through one generic function for both stores (`jump::run_jumps`), not inlined
//! twice into the search: 265.9 M to 252.1 M (`Simple` 14.98 M to 14.61 M; without tables,
//! `Simple` 63.26 M to 58.82 M, the pillars 119.2 M to 109.3 M), the same expansions; the
//! large set's clock unchanged within noise (five interleaved quiet runs: 0.92x to 1.02x).
//! Then 252.1 M to 192.0 M (0.91x on the clock), then 183.1 M: see `jump.rs`.
//!
//! The jump search starts from the more confined end of each query (`ends.rs`: the goal when
//! the "fits" bits around the 27 positions around it are fewer than around the start's, and no
//! budget can cut the search short); the moves are symmetric, so the route found from the goal,
//! reversed, costs the same. Before, searching from the start, the tables' column read 23.1 M;
//! 191 / 1.2 (34 expansions), 71.6 M; 1 911 / 0.0 (505), 373.8 M; 30 477 / 2 115 (7 224) and
//! 19.7 M; 1 573 / 0.0 (152): the choice cuts instructions 1.4x to 1.7x and the large world's
//! LL misses 3.1x (on the 40 large pairs, searching from the better end of each would give
//! 4 174 expansions, from the goal always 8 769). It is no property of jump points: the flier
//! A* given the same choice (`JPS3D_ENGINE=astar-ends`, third column) gains as much or more,
//! so the second ratio, against that A*, is the fair one, and it is what a lead giving the
//! flier A* the choice would see (the flier A* lies outside this module and does not choose
//! now; the first ratio is against it as it is). The tiled set is open space but for 4 608
//! blocks: the A* floods it, jumps cross it in one table read each; it is a large world made
//! of the real map, not a stand-in for the benchmark's cluttered large Warframe maps (random
//! free pairs there all have a free direct route). Its updates cost more since its lines are
//! long: an update fills again the lines through the change, to the walls. Wall clock, one
//! run of `cargo bench --bench jps3d` at load 6 (a rough guide only): the tiled set 13 773 us
//! per query for the flier A*, 617 us from the same ends, 141.9 us with tables; the large
//! pillars set 5 489, 3 108 and 1 971 us.
//!
//! Forcing moves only when the canonical steps are blocked (before the second kind of replacement
//! above) read 27.9 M; 203 / 0.3 (43 expansions), 78.0 M; 2 037 / 0.0 (534) and 407.7 M; 33 131 /
//! 2 300 (7 673). Those are with records of 16 bytes (see the notes on equal-cost arrivals above)
//! and landings of jumps shorter than a page side found through the page's links: with records of
//! 32 bytes the tables' column read 28.5 M; 257 / 1.4, 78.4 M; 2 502 / 19 and 405 M; 39 150 / 5 673
//! (7 612 expansions). Wall clock on a busy machine (load about 5, the fastest of six interleaved
//! runs of `cargo bench --bench jps3d` per engine, so only a rough guide): `Simple` 59.5 us against
//! 6.8 us per query (8.8x), pillars 189.6 against 50.7 (3.7x), large 1 962 against 1 156 (1.7x;
//! 1 351 with the 32-byte records in the same minutes). On a quiet machine (load 1.0, one run,
//! with the second kind of replacement): `Simple` 60.6 against 5.7 us (10.6x), pillars 194.8
//! against 47.9 (4.1x), large 1 977.4 against 1 140.9 (1.73x).
//!
//! Build and update instructions: callgrind with `--toggle-collect='*build_tables*'` and
//! `--toggle-collect='*update_tables*'` (the bench's 40 updates, each after one block set or
//! cleared, divided by 40): 430 to 480 instructions per cell, down from about 2 300 before
//! the builds swept each direction once (see the notes of `plus/fill.rs`). Before the edge
//! tables and the bench's priming, the large set with face tables read 109 k D1 and 32 k LL
//! misses per query, 27 k of them the first searches' page allocations in the cell table,
//! counted in every run then.
//!
//! ## Precomputed face and edge jumps (JPS+ in 3D)
//!
//! [`JumpTables::build`] reads a bounded world once and keeps, per cell and for each of the 6
//! face and 12 edge directions, how far a jump runs to its stop or to the wall (one byte, see
//! [`JumpTables`]), beside the cell's 27 "fits" bits: 24 bytes per cell, so that an expansion
//! reads one or two cache lines of tables. [`JumpSearch::find_path_with_tables`] then answers a
//! face or an edge jump with one table read and a test of the goal (for an edge, the one
//! position of its line whose face sub-jump could meet the goal, found from the goal's
//! offset), and reads neighbourhoods without touching the world. An edge's stop is the
//! cell-by-cell jump's: a forced move, or a face sub-jump that ends at a forced move; the
//! answers are the same. Corner jumps step ([`TABLE_LIMITS`], by default none: A* over the
//! corner moves), reading the face and edge tables at each step: stepping them further
//! changes nothing on the large world (7 612, 7 603, 7 602, 7 601 expansions per query at
//! corner limits 0, 1, 4 and none), since a corner's six sub-jumps nearly always meet
//! something.
//!
//! Edge tables cut the expansions per query from 122 to 43 on `Simple`, 943 to 532 on the
//! pillars, 13 951 to 7 612 on the large world; instructions (callgrind as above, engines
//! cold) from 59.7 M to 35.1 M, 127 M to 100 M, 699 M to 524 M. Reading them from the
//! expansion directly (not through the stepped jump) then gave the warm figures above.
//! After blocks change, [`JumpTables::apply_changes`] fills again only what the changes reach
//! (see `plus/update.rs`).
//!
//! **What limits the speed-up on large worlds.** These notes were measured before the search
//! chose its end (below), which brings the large world's LL misses to 0.7 k per query. On
//! the large set instructions fell 3.7x but LL misses rose
//! 3.9x (2.3 k per query against 0.6 k): the A*'s memory (its cell table's pages and "fits"
//! words, a few MB) is reused from query to query and stays in the L3, while each jump search
//! reads the tables of its own region of a 200 MB array (1.4 k read misses per query at the
//! expanded cell's line, 0.5 k at the records of jump landings far apart, 0.2 k at face jumps
//! read by edge jumps). At some 100 ns a miss, those cost as much as millions of
//! instructions, so the wall-clock gain there stays well below the instruction ratio. And
//! the expansions fall only 3.3x: in a world of pillars and slabs nearly every diagonal
//! position has a face line that meets a forced move, so edge jumps are short, and corner
//! jumps end after one step whatever their limit. Counted over the large set's searches
//! (counters in `expand`, since removed): of 7 224 expansions per query, 5 305 are at
//! positions whose 26 neighbours all fit and 5 438 are reached by an edge jump; of 9 308
//! edge landings, 7 025 are one step away, against 303 of 7 277 face landings; only 523
//! expanded positions have a forced move. Both engines share the open set and the
//! estimate (the same ties: the last pushed of equal `f` first), so the A* is a fair baseline;
//! with costs of 5 or 6 digits equal `f` values are rare, so ordering ties by `g` would change
//! little (and a child's key below its parent's would leave the radix heap's fast path).
//!
//! Tried on the large set and dropped (callgrind as above): cells of 16 bytes (6-bit face
//! and 5-bit edge entries beside the 27 bits; 137 MB) read 291 k LL misses against 92 k and
//! 471 M instructions against 408 M, since long lines then read an entry every 31 (or 15)
//! steps, each a miss; 8-bit faces and 4-bit edges, 190 k and 469 M; cells aligned to 32
//! bytes (one line each, 268 MB), 191 k; reading a landing's cell when it is jumped to (a
//! load kept by `std::hint::black_box`, the only safe prefetch on stable Rust: `_mm_prefetch`
//! needs `unsafe`, `std::hint::prefetch_read` is unstable) was slower on the wall clock.
//! Cells in bricks of 4 x 4 x 4 (bricks and the cells in a brick in rows along z, fills and
//! updates through an index function; kept on the branch `wt/jb-bricks`, not merged): 413 M
//! instructions against 408 M and 99.9 k LL misses against 92.0 k, since a line holds
//! at most three cells of 24 bytes whatever the layout, and a brick's border splits rows
//! along z; builds 5 424 M instructions against 3 585 M, the bench's 40 updates 408 M against
//! 232 M. Bricks do gather pages: with 4 kB lines as a model of the TLBs
//! (`--D1=393216,12,4096 --LL=16777216,16,4096`, 96 and 4 096 pages) 488 k and 44 k misses
//! against 663 k and 152 k. The wall clock did not move (load 5, the fastest of 8
//! interleaved runs: 1 395 us against 1 383 us per query), nor 2 MB pages on that busy
//! machine; with the prefetch, on a quiet one, 2 MB pages save 3% to 15% (`search/pages.rs`).
//! Nor did these, measured on the large set (callgrind as above, then the wall clock on a
//! machine too busy, at loads of 5 to 7, to tell them from the base): the landings of an
//! expansion offered in order of cost, the longest jump last (popped first among equal `f`):
//! 7 669 expansions, 494.5 M instructions (`Simple` 27.9 M to 31.3 M, the pillars 78.0 M
//! to 93.7 M); the forced-move test without branches (`--branch-sim=yes`: mispredicted
//! branches 3.35 M to 2.70 M, 412.4 M instructions), with one loop per rank of direction
//! besides (2.10 M and 447.2 M: the relax closure, called from three places, was no longer
//! inlined) or the ranks in turn in one loop (3.07 M and 421.5 M); a load of the last
//! landing's cell at the end of an expansion.
//! Nor did edge jumps that run on past the positions where only a face sub-jump stops them,
//! offering that face jump's landing from there as a successor (the turn is not made explicit, as
//! in Harabor and Grastien's improved online jump point search in 2D; the path is rebuilt by
//! stepping by the sign of what is left, which takes the edge steps first): expansions per query
//! fell to 22, 205 and 2 568 (from 34, 505 and 7 224), but instructions rose to 28.0 M, 161.5 M and
//! 1 154 M (from 23.5 M, 72.8 M and 379.5 M on the same code without it) and the large set's LL
//! misses to 500 k (from 85 k): an edge line here meets a face stop at nearly every step, so a run
//! offers up to two far landings per step, most of them never expanded. Running past one turn at
//! most: 363 expansions and 100.6 M instructions on the pillars, 5 272 and 542 M on the large set;
//! past two, 300 and 107.5 M on the pillars; only while the edge heads towards the goal along both
//! its axes, 249 and 118.4 M. Corner jump limits of 1 and 4 (`JPS3D_LIMITS`) gave 504 and 503
//! expansions on the pillars for 88.4 M and 88.6 M instructions.
//!
//! Per query against the flier A* (callgrind on the same queries): instructions 10.2 M
//! against 38.0 M, D1 misses 33 k against 168 k, misses of a 1 MB cache standing for the L2
//! (`--LL=1048576,16,64`) 15.7 k against 70.3 k, mispredicted branches 84 k against 175 k;
//! only misses of the 32 MB LL are more (2.3 k against 0.6 k). The jump search does less of
//! nearly everything and is still only 1.5x faster on the wall clock. The likely reason (this
//! virtual machine has no hardware counters to show it): its reads form one chain (the
//! popped record, then its table cell, then the jumps' landings and their records), each
//! waiting for the last, where the A*'s 26 neighbour reads per expansion are independent and
//! their misses overlap. Hiding that latency needs prefetches, which safe stable Rust does not
//! have, or a search that works on several positions at once. The table cell of every landing
//! is now asked for when the landing is found (`search/prefetch.rs`): 1.22x to 1.46x less
//! time per query on the large set (see `dense.rs`); with the tables in huge pages too, 5.1x
//! the flier A*'s speed on the bench's 40 pairs, 4.5x on 200 (`ends.rs`: the draw matters).
//! And the read misses grow fast as the last-level cache shrinks (this machine's L3 is shared
//! with whatever else runs on its host): with an LL of 8 MB (`--LL=8388608,16,64`) the jump search reads 8.7 k lines
//! per query from memory (349 k over the 40 queries, against 83.6 k at 32 MB), the A* 2.2 k
//! (87 k; most of its misses are writes). Fewer bytes per cell of the tables is what would
//! keep a query's region cached.
//!
//! A move to a neighbour finds its record at a fixed offset in its page, as the flier A*'s do.
//! No `Simple` problem has a free direct route (the scenarios are chosen so), so the direct
//! route pays only on open worlds. Testing the direct route from every expanded position (a
//! route found then is optimal too: its cost is the popped `f`) ended `Simple`'s searches
//! only 6% sooner at 8 times the instructions.
//!
//! **What limits the speed-up.** Read-ahead pays only when it costs less than the
//! expansions it saves, and here it does not. Stepped one position at a time (about 200
//! instructions each: 9 word reads and the forced-move test), any limit above 0 costs more
//! (see [`JUMP_LIMITS`]). Scanned by word ([`JumpSearch::with_straight_scans`]: lines of 64
//! "fits" bits, a forced move looked for only where a side line turns free), straight jumps
//! cut the expansions 6x on `Simple` (759 to 122 per query; stepped jumps of up to 128
//! positions gave the same 122), but each of the 263 face jumps per query costs about
//! 1 000 instructions: a jump along x or z needs the lines of 3 x 64 columns around it, which
//! the "fits" words (columns along y, read per search since the world may change) give only
//! by reading and transposing 64 column words per block (about 30% of the time: each block
//! fill reads the world), and 9 part reads per 64 positions (another 35%). The search then
//! also reads the world far from where A* would look. Diagonal jumps that call the straight
//! ones at every step (JPS-3D's recursion, limited) cut the expansions further but cost more
//! still: on `Simple`, with scanned straight jumps (a first version), edge limits 1, 2 and 8
//! gave 77, 66 and 44 expansions per query for 541 M, 669 M and 1 729 M instructions; stepped
//! throughout (no scans), limits (128, 1, 1) and (128, 128, 1) read 21 000 and 314 000
//! positions per query for 77 and 36 expansions.
//!
//! ## Files
//!
//! `mod.rs` holds the search; `canon.rs` its per-direction tables (natural and forced moves);
//! `direct.rs` the direct route; `ends.rs` the choice of the end to search from; `jump.rs` the
//! records, the jump move source and the jump; `dense.rs` the records of a search with tables;
//! `face.rs` the straight jump scanned by word; `plus.rs` the precomputed face and edge jumps
//! ([`JumpTables`]) and `plus/fill.rs` their filling; `fits.rs` the per-search "fits" words,
//! and `fits/lines.rs` the lines of them along each axis.

use std::time::Instant;

use glam::IVec3;

use crate::error::{Error, Result};
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::fly::step_cost;
use crate::moves::wide::BoxView;
use crate::search::BlockGoal;
use crate::search::cells::CellTable;
use crate::search::heuristic::Heuristic;
use crate::search::open::OpenSet;
use crate::search::{Budget, Pathfinder, SearchOptions, SearchResult, SearchStats, SearchStatus};
use crate::world::VoxelWorld;

mod canon;
mod dense;
mod direct;
mod ends;
mod face;
mod fits;
mod jump;
mod plus;

pub use plus::{JumpTables, MAX_TABLE_CELLS};

use canon::{Tables, canonical_cost_failure, plus_ahead};
use dense::{DenseRecords, DenseStore};
use direct::direct_route;
use ends::from_goal;
use fits::Fits;
use jump::{JumpMoves, JumpRecord, JumpRecords, run_jumps};

/// The tallest body the jump search takes.
pub const MAX_JUMP_HEIGHT: u32 = 3;

/// The most positions a jump reads (each with the jumps it spawns there) before it stops and
/// makes its next position explicit, by how many axes its direction changes (1, 2, 3): it
/// bounds the work of a diagonal jump through open space, where its sub-jumps end only at
/// walls, and makes jumps end on unbounded worlds. 0 stops every jump after its first step:
/// the search is then A* over the canonical (natural and forced) moves.
///
/// With [`JumpSearch::with_straight_scans`], a face jump over a bounded world (see the
/// module notes) scans by word instead, to the first forced move or wall.
///
/// Reading positions ahead costs more than the expansions it saves. Instructions (`cargo
/// bench --bench jps3d`, callgrind on `run_jps`) on the 300 `Simple` problems, with the
/// limits read at run time (which cost about 24 M more than constants), limits for face,
/// edge and corner jumps `[0, 0, 0]` 219 M (759 expansions per query), `[2, 0, 0]` 215 M
/// (328), `[4, 0, 0]` 230 M (233), `[8, 0, 0]` 274 M (164), `[2, 1, 0]` 257 M (327). An
/// earlier budget shared by a jump and its sub-jumps gave 212 M / 198 M / 215 M for 0 / 1 / 2
/// positions, and more on the pillars and the large set.
pub const JUMP_LIMITS: [u32; 3] = [0, 0, 0];

/// With [`JumpTables`], the most positions an edge jump (`[0]`) and a corner jump (`[1]`)
/// read before they stop, as [`JUMP_LIMITS`]: edge jumps read the tables and run to their
/// stop by default, corner jumps step and stop after one step.
/// [`JumpSearch::with_diagonal_limits`] changes them.
pub const TABLE_LIMITS: [u32; 2] = [u32::MAX, 0];

/// The arrival code of the start: every direction is natural there.
const START: usize = 26;

/// Jump point search for a flier or swimmer one to [`MAX_JUMP_HEIGHT`] cells tall, with the
/// answers (costs, and routes as cell-by-cell paths) of the flier A*.
///
/// ```
/// use voxnav::engine::JumpSearch;
/// use voxnav::world::DenseWorld;
/// use voxnav::{Agent, IVec3, MoveCosts, SearchOptions};
/// let world = DenseWorld::new(IVec3::new(8, 8, 8))?;
/// let mut jps = JumpSearch::new(Agent::flier(1), MoveCosts::octile())?;
/// let result = jps.find_path(&world, IVec3::ZERO, IVec3::new(7, 3, 5), &SearchOptions::default())?;
/// assert!(result.is_found());
/// assert_eq!(result.path.len(), 8);
/// # Ok::<(), voxnav::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct JumpSearch {
    agent: Agent,
    costs: MoveCosts,
    tables: Tables,
    /// Where the body fits, per search; the records of the explicit positions, kept where
    /// the positions lie (the cell table of the flier A*) or, with tables, in a dense store;
    /// the open set. All keep their memory between queries.
    fits: Fits,
    cells: CellTable<JumpRecord>,
    dense: DenseStore,
    open: OpenSet,
}

impl JumpSearch {
    /// A jump search for `agent` (a flier or swimmer one to [`MAX_JUMP_HEIGHT`] cells tall,
    /// of any width the rules take) under `costs`.
    ///
    /// # Errors
    /// [`Error::InvalidSetting`] when the agent or the costs are invalid, the agent walks or is
    /// taller than [`MAX_JUMP_HEIGHT`], a step costs nothing, a jump's
    /// steps (the largest of [`JUMP_LIMITS`] + 1) cost more than `u32::MAX` together, or the
    /// costs let a detour cost less than the canonical steps (a corner step dearer than a
    /// face and an edge step together, for example), which jump point search cannot honour.
    pub fn new(agent: Agent, costs: MoveCosts) -> Result<Self> {
        agent.validate()?;
        costs.validate()?;
        if !agent.movement.is_free() {
            return Err(Error::InvalidSetting(format!(
                "jump point search is for fliers and swimmers, not a {} agent",
                agent.movement.as_str()
            )));
        }
        if agent.height > MAX_JUMP_HEIGHT {
            return Err(Error::InvalidSetting(format!(
                "jump point search takes bodies up to {MAX_JUMP_HEIGHT} cells tall, not {}",
                agent.height
            )));
        }
        if costs.straight == 0 || costs.diagonal == 0 || costs.corner == 0 {
            return Err(Error::InvalidSetting(
                "jump point search needs face, edge and corner steps that cost more than 0".into(),
            ));
        }
        let longest = JUMP_LIMITS.iter().max().copied().unwrap_or(0) + 1;
        let longest_jump =
            u64::from(costs.corner.max(costs.diagonal).max(costs.straight)) * u64::from(longest);
        if longest_jump > u64::from(u32::MAX) {
            return Err(Error::InvalidSetting(format!(
                "jump point search needs a jump of {longest} steps to cost at most {}, not {longest_jump}",
                u32::MAX
            )));
        }
        if let Some((d, e)) = canonical_cost_failure(&costs) {
            return Err(Error::InvalidSetting(format!(
                "jump point search needs costs under which the canonical steps are never dearer: \
                 the steps {d} then {e} cost less than the canonical steps between their ends"
            )));
        }
        Ok(Self {
            agent,
            costs,
            tables: Tables::new(&costs),
            fits: Fits::default(),
            cells: CellTable::default(),
            dense: DenseStore::default(),
            open: OpenSet::default(),
        })
    }

    /// The same search with its face (straight) jumps scanned by word (`on`) or stepped one
    /// position at a time, as [`JUMP_LIMITS`] says (the default). A scanned face jump reads the
    /// world as lines of "fits" bits, 64 positions per word, and runs to the first forced
    /// move, the goal or a wall, in a bounded world of at most a few million column words (see
    /// the module notes; elsewhere jumps step). The answers are the same either way.
    ///
    /// Scanning makes far fewer positions explicit, but reads the world far from the
    /// positions A* would touch, and on the flying sets of `cargo bench --bench jps3d` it
    /// costs more than it saves (instructions, callgrind on `run_jps`): `Simple` 421 M against
    /// 197 M (122 expansions per query against 759), the pillars 603 M against 214 M (943
    /// against 2 521), the large set 3 575 M against 901 M (13 951 against 27 524).
    #[must_use]
    pub fn with_straight_scans(mut self, on: bool) -> Self {
        self.tables.scans = on;
        self
    }

    /// The same search with, under [`JumpTables`], edge jumps reading at most `edge`
    /// positions and corner jumps at most `corner` before they stop ([`TABLE_LIMITS`] by
    /// default; `u32::MAX` runs them to their stop, which a bounded world always has). The
    /// answers are the same; the work moves between expansions and jumps (see the module
    /// notes).
    #[must_use]
    pub fn with_diagonal_limits(mut self, edge: u32, corner: u32) -> Self {
        self.tables.plus_limits = [edge, corner];
        self.tables.plus_ahead = plus_ahead([edge, corner]);
        self
    }

    /// Finds a route from the feet position `start` to the feet position `goal`: the cost of
    /// the flier A*'s answer, the route cell by cell. [`SearchStats::expanded`] counts the
    /// explicit positions expanded (jump points); a free direct route (see the module notes)
    /// is returned with none.
    ///
    /// # Errors
    /// As [`Pathfinder::find_path`]: [`Error::InvalidStart`] or [`Error::InvalidGoal`],
    /// [`Error::ZeroBudget`] / [`Error::ZeroTimeBudget`], [`Error::Unbounded`].
    pub fn find_path<W: VoxelWorld + ?Sized>(
        &mut self,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        self.find(None, world, start, goal, options)
    }

    /// [`JumpSearch::find_path`] with the face and edge jumps read from `tables`, built from `world`
    /// as it is now for this search's agent: the same answers, from fewer expansions (see
    /// the module notes). Tables of an older state of a world that tells its version
    /// ([`VoxelWorld::watch`]) are refused; for a world that cannot tell, tables of an older
    /// state give wrong answers: build them again after every change.
    ///
    /// # Errors
    /// As [`JumpSearch::find_path`]; [`Error::InvalidSetting`] when the tables were built
    /// for another agent or for a world of other bounds, or when a jump across the world
    /// would cost more than `u32::MAX`; as [`JumpTables::check_current`] when the world they
    /// were built from has changed since, or another world is given.
    pub fn find_path_with_tables<W: VoxelWorld + ?Sized>(
        &mut self,
        tables: &JumpTables,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        tables.check_current(world)?;
        let view_bounds = match self.agent.width {
            1 => world.bounds(),
            width => BoxView::new(world, width).bounds(),
        };
        if tables.agent() != self.agent || view_bounds != Some(tables.bounds()) {
            return Err(Error::InvalidSetting(format!(
                "jump tables built for {:?} in a world of bounds {:?} were given {:?} in a world of bounds {:?}",
                tables.agent(),
                tables.bounds(),
                self.agent,
                view_bounds
            )));
        }
        let dearest = self
            .costs
            .corner
            .max(self.costs.diagonal)
            .max(self.costs.straight);
        let longest = u64::from(dearest) * u64::from(tables.longest_line());
        if longest > u64::from(u32::MAX) {
            return Err(Error::InvalidSetting(format!(
                "a jump across the world would cost {longest}, more than {}",
                u32::MAX
            )));
        }
        self.find(Some(tables), world, start, goal, options)
    }

    fn find<W: VoxelWorld + ?Sized>(
        &mut self,
        plus: Option<&JumpTables>,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        self.agent
            .check_position(world, start)
            .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
        self.agent
            .check_position(world, goal)
            .map_err(|reason| Error::InvalidGoal { pos: goal, reason })?;
        options.check_budgets(world.bounds().is_some())?;
        let searched = match self.agent.width {
            1 => self.search(plus, world, start, goal, options, started),
            // A wide body follows the box rule of a one-block body in the view where a cell
            // stands for the body's cross-section (as in the flier A*).
            width => {
                let view = BoxView::new(world, width);
                self.search(plus, &view, start, goal, options, started)
            }
        };
        let (cost, extra) = searched
            .as_ref()
            .map_or((0, false), |result| self.true_cost(world, &result.path));
        let mut result = match searched {
            Some(result) if !(result.status == SearchStatus::Found && extra) => result,
            searched => {
                // A route through extra costs may not be optimal, and a route dearer than a
                // record holds was not searched: the flier A* answers instead.
                let mut fallback = Pathfinder::new(self.agent, self.costs)?
                    .find_path(world, start, goal, options)?;
                if let Some(searched) = searched {
                    fallback.stats.expanded += searched.stats.expanded;
                    fallback.stats.generated += searched.stats.generated;
                }
                fallback.stats.elapsed = started.elapsed();
                return Ok(fallback);
            }
        };
        // A found route free of extra costs costs the uniform optimum; a partial one is
        // priced as the flier A* prices it.
        if result.status != SearchStatus::Unreachable {
            result.cost = Some(cost);
        }
        result.stats.elapsed = started.elapsed();
        Ok(result)
    }

    /// The cost of `path` with the extra costs of the cells it enters, and whether any has one.
    fn true_cost<W: VoxelWorld + ?Sized>(&self, world: &W, path: &[IVec3]) -> (u64, bool) {
        let (mut cost, mut extra) = (0u64, false);
        for pair in path.windows(2) {
            let more = world.extra_cost(pair[1]);
            extra |= more != 0;
            cost += u64::from(step_cost(&self.costs, pair[1] - pair[0])) + u64::from(more);
        }
        (cost, extra)
    }

    /// The search over jump points: the one A* loop of the crate ([`run_jumps`]) with the jumps as
    /// its move source and the records in the flier A*'s cell table (with tables, in the
    /// dense store). A route free of extra costs is what the flier A* would find; the cost is
    /// filled in by the caller. `None` when a route's cost went past what a record holds
    /// (`u32::MAX`), or when a search from the goal's side ended partial (the cell table full).
    fn search<W: VoxelWorld + ?Sized>(
        &mut self,
        plus: Option<&JumpTables>,
        world: &W,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
        started: Instant,
    ) -> Option<SearchResult> {
        let budget = Budget::new(options, started);
        let estimator = Heuristic::default().estimator(&self.agent, &self.costs);
        let Self {
            tables,
            fits,
            cells,
            dense,
            open,
            ..
        } = self;
        fits.start(world, &self.agent, tables.scans);
        if direct_route(fits, world, start, goal, &mut Vec::new()) {
            let mut path = vec![start];
            direct_route(fits, world, start, goal, &mut path);
            return Some(SearchResult {
                status: SearchStatus::Found,
                path,
                cost: None,
                stats: SearchStats {
                    generated: 1,
                    ..SearchStats::default()
                },
            });
        }
        let reversed = from_goal(fits, plus, world, start, goal, options);
        let (from, goal) = if reversed {
            (goal, start)
        } else {
            (start, goal)
        };
        let mut source = JumpMoves {
            tables,
            fits,
            plus,
            world,
            goal,
        };
        let goal = BlockGoal(goal);
        let mut result = if let Some(plus) = plus {
            let node = dense.start(plus, from, 1 << START);
            let mut table = DenseRecords { store: dense, plus };
            run_jumps(
                &mut table,
                &mut source,
                open,
                node,
                &goal,
                &estimator,
                &budget,
                started,
            )?
        } else {
            cells.start(world.bounds());
            let Some(node) = cells.node(from) else {
                // Valid ends lie in the key range; nothing is reachable from elsewhere.
                return Some(SearchResult::unreachable(SearchStats::default()));
            };
            let tag = cells.tag(0);
            *cells.cell(node) = JumpRecord {
                g: 0,
                tag,
                parent: node,
                arrivals: 1 << START,
            };
            let mut table = JumpRecords { cells, tag };
            run_jumps(
                &mut table,
                &mut source,
                open,
                node,
                &goal,
                &estimator,
                &budget,
                started,
            )?
        };
        result.cost = None;
        if reversed {
            if result.status == SearchStatus::Partial {
                // The route to the best position found from the goal's side starts elsewhere
                // than at the start: the flier A* answers.
                return None;
            }
            result.path.reverse();
        }
        Some(result)
    }
}
