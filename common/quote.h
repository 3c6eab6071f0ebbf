/* A value from outside (an environment variable's, an option's, a path)
 * quoted in a one-line error message: cut, so that a long one (a variable
 * of 100 kB) leaves the message room to say what is wrong with it, where
 * the message's buffer used to end inside the value. Its control
 * characters are escaped where the message is printed (cmd/cli.c). */
#ifndef KB_QUOTE_H
#define KB_QUOTE_H

/* The bytes of a value a message keeps, before "...". */
#define KB_QUOTE_MAX 60

/* Room for a quoted value: KB_QUOTE_MAX bytes, "..." and the terminator. */
#define KB_QUOTE_SIZE (KB_QUOTE_MAX + 4)

/* value (NULL: "") whole when it has at most KB_QUOTE_MAX bytes, else its
 * first bytes, never part of a UTF-8 character, and "..."; in buf,
 * returned. */
const char *kb_quote(const char *value, char buf[KB_QUOTE_SIZE]);

#endif
