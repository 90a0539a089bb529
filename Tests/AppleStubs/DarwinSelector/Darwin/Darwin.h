// Intentionally empty: see module.modulemap.
#pragma once
