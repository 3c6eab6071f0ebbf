/* Declarations of the unit-test groups listed in groups.def. */
#ifndef KB_GROUPS_H
#define KB_GROUPS_H

#define UNIT_GROUP(name) void name(void);
#include "groups.def"
#undef UNIT_GROUP

#endif
