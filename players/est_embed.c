/* est_embed.c — the built-in estimation model: players/est.weights as a NUL-terminated
 * string in the binary (the assembler's .incbin; the Makefile rebuilds this file when the
 * weights change). The text is parsed and checked by estimate.c like any model file. */
__asm__(".section .rodata\n"
        ".global est_weights_text\n"
        ".type est_weights_text, @object\n"
        "est_weights_text:\n"
        ".incbin \"players/est.weights\"\n"
        ".byte 0\n"
        ".size est_weights_text, . - est_weights_text\n"
        ".previous\n");
