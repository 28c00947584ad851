/* policy_embed.c — the built-in policy weights: players/policy.weights as a NUL-terminated
 * string in the binary (the assembler's .incbin; the Makefile rebuilds this file when the
 * weights change). The text is parsed and checked by policy.c like any weights file. */
__asm__(".section .rodata\n"
        ".global policy_weights_text\n"
        ".type policy_weights_text, @object\n"
        "policy_weights_text:\n"
        ".incbin \"players/policy.weights\"\n"
        ".byte 0\n"
        ".size policy_weights_text, . - policy_weights_text\n"
        ".previous\n");
