// tabletop — camera mount: a clamp-on arm for the edge of a table (OpenSCAD 2021.01 or later)
//
//          head (camera plate, lens down)
//   elbow  +===============[cam]            <- arm: a tube, cut to length
//    |                       |
//    |  mast: a tube,        | arm_height   (lens above the table top)
//    |  cut to length        v
//   [clamp]====================== table top
//      <------ arm_length ------>           (table edge to the camera's centre)
//
// Printed parts: the table clamp, the elbow, the camera head and four spacers. The mast and the arm are two
// straight tubes or dowels of diameter tube_d (20 mm aluminium tube, 1.5 mm wall, or a 20 mm hardwood
// dowel). When you render, the console prints the length to cut each tube to ("ECHO: ...").
//
// Hardware: 1 × M6 bolt, at least table_thickness + 20 mm long, with an M6 hex nut (the clamp screw;
// a wing bolt or a printed knob makes it a thumbscrew; stick a rubber pad on its tip); 3 × M4 × 12 set
// screws (they cut their own thread in the 3.3 mm holes; or use M4 heat-set inserts and widen
// set_screw_d to the insert's hole); 4 × M2 × 10 screws and nuts for the Raspberry Pi camera board.
// A USB webcam with a 1/4"-20 tripod thread fixes to the camera head with a 1/4"-20 screw instead.
//
// Print: PLA or PETG, 0.2 mm layers, 4 perimeters, 30 % infill. part = "all" lays every printed part out
// in its print orientation (the default, and what `openscad -o mount.stl mount.scad` exports); the bores
// that lie horizontally bridge well enough on most printers (or ream them with a 20 mm drill). Export one
// part with e.g. `openscad -D 'part="clamp"' -o clamp.stl mount.scad`; part = "assembly" shows the whole
// mount on a table (not for printing).
//
// Heights: hardware/mounting_height.py (and the table in hardware/README.md) gives the lens height each
// camera needs for a given table, e.g. 67 cm for the Camera Module 3 Wide over an 80 × 80 cm table.

/* [What to render] */
part = "all"; // [all, clamp, elbow, head, spacer, assembly]

/* [Table and reach, mm] */
table_thickness = 40;  // the thickest table top the clamp must take (the screw takes up the rest)
arm_length = 420;      // horizontal distance from the table edge to the camera's centre
arm_height = 700;      // height of the camera lens above the table top

/* [Tubes, mm] */
tube_d = 20;           // outer diameter of the mast and the arm
tube_clearance = 0.4;  // added to the bore's diameter; print a test if your printer runs tight
socket_depth = 40;     // how far a tube goes into a printed socket
socket_wall = 4;

/* [Camera, mm] */
camera_board = [25, 24];       // Raspberry Pi Camera Module 3 (and v2): 25 wide × 24 high
camera_holes = [21, 12.5];     // M2 hole spacing: 21 across the 25 mm side, 12.5 along the 24 mm side
camera_hole_inset = 2;         // holes' distance from the board's top edge (the edge away from the cable)
camera_screw_d = 2.4;          // M2 clearance
spacer_h = 4;                  // keeps the parts on the back of the board off the plate
lens_drop = 6;                 // from the board's front to the lens's front (for arm_height)
webcam_screw_d = 6.8;          // 1/4"-20 clearance at the plate's centre; 0 for none

/* [Clamp, mm] */
clamp_width = 40;      // along the table edge
jaw_depth = 60;        // how far the jaws reach in over the table
jaw_wall = 8;          // upper jaw and spine
lower_jaw = 12;        // the lower jaw holds the M6 nut
clamp_bolt_d = 6.6;    // M6 clearance
clamp_nut_af = 10.2;   // M6 nut across flats, plus clearance
clamp_nut_h = 5.4;

/* [Common, mm] */
plate_t = 4;           // camera plate
set_screw_d = 3.3;     // M4, self-tapping into the print
floor_t = 3;           // bottom of the mast's socket

/* [Hidden] */
$fn = 64;
eps = 0.01;
bore_d = tube_d + tube_clearance;
r_o = bore_d / 2 + socket_wall;                 // a socket's outer radius
T = table_thickness + 1;                        // the clamp's opening
mast_x = -jaw_wall - r_o;                       // the mast's axis, from the table edge
floor_z = -T - lower_jaw + floor_t;             // where the mast stands, from the table top
clamp_top = max(jaw_wall + 25, floor_z + socket_depth);
elbow_h = socket_depth + 2 * r_o;               // elbow: vertical socket below, arm socket on top
elbow_arm_z = elbow_h - r_o;
head_cam_x = socket_depth + socket_wall + 4 + camera_board[1] / 2;  // camera centre in the head
head_len = head_cam_x + camera_board[1] / 2 + 6;
head_w = max(camera_board[0] + 12, 2 * r_o);

arm_z = arm_height + lens_drop + 1 + spacer_h + plate_t + r_o;      // the arm's axis above the table
elbow_z = arm_z - elbow_arm_z;
mast_len = elbow_z + socket_depth - floor_z;
head_x = arm_length - head_cam_x;
arm_len = head_x + socket_depth - mast_x;

echo(str("Cut the mast (vertical tube) to ", round(mast_len), " mm"));
echo(str("Cut the arm (horizontal tube) to ", round(arm_len), " mm"));
assert(arm_len > 2 * socket_depth + 20, "arm_length is too short for the sockets");
assert(mast_len > 2 * socket_depth + 20, "arm_height is too low for the sockets");

// A radial set screw through a socket's wall, with a boss around it: along +dir from the axis.
module set_screw_boss(len) { translate([0, -6, 0]) cube([len, 12, 12]); }

// ---------------------------------------------------------------------------------------------------
// Table clamp, as used: table edge along y at x = 0, table top at z = 0, the table at x > 0.
module clamp() {
    difference() {
        union() {
            translate([-jaw_wall, -clamp_width / 2, 0]) cube([jaw_wall + jaw_depth, clamp_width, jaw_wall]);
            translate([-jaw_wall, -clamp_width / 2, -T - lower_jaw])
                cube([jaw_wall + jaw_depth, clamp_width, lower_jaw]);
            // spine and mast socket in one piece
            hull() {
                translate([-jaw_wall, -clamp_width / 2, -T - lower_jaw])
                    cube([jaw_wall, clamp_width, T + lower_jaw + jaw_wall]);
                translate([mast_x, 0, -T - lower_jaw]) cylinder(r = r_o, h = T + lower_jaw + clamp_top);
                translate([-jaw_wall, -clamp_width / 2, -T - lower_jaw])
                    cube([eps, clamp_width, T + lower_jaw + clamp_top]);
            }
            // set-screw boss on the outside of the socket
            translate([mast_x, 0, clamp_top - 18]) rotate([0, 0, 180]) set_screw_boss(r_o + 3);
        }
        // mast bore, closed at the bottom
        translate([mast_x, 0, floor_z]) cylinder(d = bore_d, h = clamp_top - floor_z + 1);
        translate([mast_x, 0, clamp_top - 12]) rotate([0, -90, 0]) cylinder(d = set_screw_d, h = r_o + 10, $fn = 24);
        // clamp screw through the lower jaw, nut trapped on the jaw's inner face
        translate([jaw_depth - 15, 0, -T - lower_jaw - 1]) cylinder(d = clamp_bolt_d, h = lower_jaw + 2, $fn = 32);
        translate([jaw_depth - 15, 0, -T - clamp_nut_h])
            cylinder(d = clamp_nut_af / cos(30), h = clamp_nut_h + eps, $fn = 6);
        // soften the jaws' inner front edges
        for (z = [-T, 0]) translate([jaw_depth, -clamp_width / 2 - 1, z]) rotate([-90, 0, 0])
            cylinder(r = 2, h = clamp_width + 2, $fn = 4);
    }
}

// ---------------------------------------------------------------------------------------------------
// Elbow, as used: the mast enters from below (axis x = y = 0), the arm from +x at z = elbow_arm_z.
module elbow() {
    difference() {
        union() {
            cylinder(r = r_o, h = elbow_h);
            // arm socket, flat on top so that it prints upside down on its flat face
            translate([0, 0, elbow_arm_z]) rotate([0, 90, 0]) cylinder(r = r_o, h = socket_depth);
            translate([0, -r_o, elbow_arm_z]) cube([socket_depth, 2 * r_o, r_o]);
            translate([0, 0, 8]) rotate([0, 0, 180]) set_screw_boss(r_o + 3);
            translate([socket_depth / 2 - 6, -6, elbow_arm_z]) cube([12, 12, r_o]);
        }
        translate([0, 0, -1]) cylinder(d = bore_d, h = socket_depth + 1);
        translate([0, 0, elbow_arm_z]) rotate([0, 90, 0]) cylinder(d = bore_d, h = socket_depth + 1);
        translate([0, 0, 14]) rotate([0, -90, 0]) cylinder(d = set_screw_d, h = r_o + 10, $fn = 24);
        translate([socket_depth / 2, 0, elbow_arm_z]) cylinder(d = set_screw_d, h = r_o + 10, $fn = 24);
    }
}

// ---------------------------------------------------------------------------------------------------
// Camera head, as used: plate at z = 0..plate_t, the arm enters from -x, the camera hangs under the plate
// (lens down, its cable edge towards the arm) on four spacers.
module camera_holes() {
    // hole pattern centred across the board; along x, inset from the board's far (top) edge
    for (sy = [-1, 1], hx = [0, camera_holes[1]])
        translate([head_cam_x + camera_board[1] / 2 - camera_hole_inset - hx, sy * camera_holes[0] / 2, 0])
            children();
}

module head() {
    difference() {
        union() {
            translate([0, -head_w / 2, 0]) cube([head_len, head_w, plate_t]);
            translate([0, 0, plate_t + r_o]) rotate([0, 90, 0]) cylinder(r = r_o, h = socket_depth + socket_wall);
            translate([0, -r_o, 0]) cube([socket_depth + socket_wall, 2 * r_o, plate_t + r_o]);
            translate([socket_depth / 2 - 6, -6, plate_t + r_o]) cube([12, 12, r_o]);
        }
        translate([-1, 0, plate_t + r_o]) rotate([0, 90, 0]) cylinder(d = bore_d, h = socket_depth + 1);
        translate([socket_depth / 2, 0, plate_t + r_o]) cylinder(d = set_screw_d, h = r_o + 10, $fn = 24);
        camera_holes() translate([0, 0, -1]) cylinder(d = camera_screw_d, h = plate_t + 2, $fn = 16);
        if (webcam_screw_d > 0)
            translate([head_cam_x, 0, -1]) cylinder(d = webcam_screw_d, h = plate_t + 2, $fn = 32);
        // slots for a cable tie that holds the camera's ribbon along the arm
        for (sy = [-1, 1]) translate([socket_depth + socket_wall + 0.5, sy * (r_o - 1) - 1.5, -1])
            cube([3, 3, plate_t + 2]);
    }
}

module spacer() {
    difference() {
        cylinder(d = 5.5, h = spacer_h, $fn = 24);
        translate([0, 0, -1]) cylinder(d = camera_screw_d, h = spacer_h + 2, $fn = 16);
    }
}

// ---------------------------------------------------------------------------------------------------
module print_layout() {
    // clamp on its side (the C's profile on the bed)
    translate([0, 0, clamp_width / 2]) rotate([90, 0, 0]) clamp();
    // elbow upside down, on the flat top of its arm socket
    translate([-jaw_wall - 2 * r_o - 8 - socket_depth, 3 * r_o + 10 + T, elbow_h]) rotate([180, 0, 0]) elbow();
    // camera head, plate down
    translate([0, 2 * r_o + 10 + T + 2 * r_o + 20 + head_w / 2, 0]) head();
    for (i = [0 : 3]) translate([head_len + 10 + i * 9, T + 4 * r_o + 30 + head_w / 2, 0]) spacer();
}

module assembly() {
    color("BurlyWood") translate([0, -300, -25]) cube([600, 600, 25]);  // a 25 mm table top
    color("SteelBlue") clamp();
    color("Silver") translate([mast_x, 0, floor_z]) cylinder(d = tube_d, h = mast_len);
    color("SteelBlue") translate([mast_x, 0, elbow_z]) elbow();
    color("Silver") translate([mast_x, 0, arm_z]) rotate([0, 90, 0]) cylinder(d = tube_d, h = arm_len);
    translate([head_x, 0, arm_z - plate_t - r_o]) {
        color("SteelBlue") head();
        color("SteelBlue") camera_holes() translate([0, 0, -spacer_h]) spacer();
        color("Green") translate([head_cam_x - camera_board[1] / 2, -camera_board[0] / 2, -spacer_h - 1])
            cube([camera_board[1], camera_board[0], 1]);
        color("Black") translate([head_cam_x, 0, -spacer_h - 1 - lens_drop]) cylinder(d = 8, h = lens_drop);
    }
}

if (part == "clamp") clamp();
else if (part == "elbow") elbow();
else if (part == "head") head();
else if (part == "spacer") spacer();
else if (part == "assembly") assembly();
else print_layout();
