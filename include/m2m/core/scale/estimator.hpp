// Real scale: a transformer's parameters, FLOPs and memory, one training step on the shared
// scheduler, and layout search. One include for all of it; each part has its own header.
//
// [SECTION] The model        transformer.hpp     TransformerShape, parameter and FLOP counts, activation bytes
// [SECTION] The layout       layout.hpp          GpuSpec (efficiency from hardware.json), Layout, check()
// [SECTION] The exchanges    exchange_cost.hpp   ExchangeTimer: every exchange timed on Lesson 2's cluster
// [SECTION] The links        layout_links.hpp    LayoutLinks: a layout's groups (tensor, context, data, expert) and routes
// [SECTION] The pipeline     pipeline_timing.hpp the passes timed in schedule order without the graph
// [SECTION] The estimate     step_estimate.hpp   memory, stage costs, exchanges, the step's work graph, estimate()
// [SECTION] Search           layout_search.hpp   every valid layout for a GPU count, ranked
// [SECTION] Real scale       training_run.hpp    one CPU vs one GPU vs a cluster
// Pipeline schedules (PipelineSchedule, alias ScheduleKind) are the engine's: pipeline_schedule.hpp.
// Bytes per parameter are the engine's too: training_bytes.hpp.
#pragma once

#include "m2m/core/engine/machine.hpp"
#include "m2m/core/engine/pipeline_schedule.hpp"
#include "m2m/core/engine/training_bytes.hpp"
#include "m2m/core/scale/layout.hpp"
#include "m2m/core/scale/exchange_cost.hpp"
#include "m2m/core/scale/layout_links.hpp"
#include "m2m/core/scale/pipeline_timing.hpp"
#include "m2m/core/scale/layout_search.hpp"
#include "m2m/core/scale/step_estimate.hpp"
#include "m2m/core/scale/training_run.hpp"
#include "m2m/core/scale/transformer.hpp"
