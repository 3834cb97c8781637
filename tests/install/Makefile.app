# An application's own Makefile: everything it knows of the package is PROFILE_DIR.
include $(PROFILE_DIR)/lib/profile.mk

app.elf: app.c
	$(PROFILE_CC) $(PROFILE_CFLAGS) $(PROFILE_PG_CFLAGS) -c app.c -o app.o
	$(PROFILE_CC) $(PROFILE_LDFLAGS) app.o $(PROFILE_LIBS) -o app.elf
