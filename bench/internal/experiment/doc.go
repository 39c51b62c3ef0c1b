// Package experiment is the paper's experiment (Ahrens & Hansen 1995, §4)
// as a library: a dataset's balanced and unbalanced polygon sets on the
// GPU with a renderer for them (Experiment), frames measured under each
// policy and Lanes value (Measure, Frame), the image-equality check
// (ImageCheck), the loops' overestimated costs from the calibration file
// or calibrated now (LoadOrCalibrate), and the run of Tables 1-4
// (PaperRun) that returns a typed Report: the tables' data, the §4.1 cost
// check, the paper's headline figures beside ours, the image check and the
// balancer's warnings. RunSecond is the paper's second experiment (three
// more sets, dataset.SecondExperiment) on the same renderer with the first
// one's costs, returning a SecondReport. Command bench prints and writes
// the reports; this package prints nothing.
//
// The data's path: dataset.Pair (volume → isosurface → the two polygon
// sets) → Experiment (uploaded sets, rasterizer.Renderer) → Frame (one set
// at one view under one policy and Lanes value, repeated) → Report.
package experiment
