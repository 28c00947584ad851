/* gift_embed.c — the built-in gift model weights: players/gift.weights as a NUL-terminated string
 * in the binary (the assembler's .incbin; the Makefile rebuilds this file when the weights
 * change). The text is parsed and checked by gift.c like any weights file. */
__asm__(".section .rodata\n"
        ".global gift_weights_text\n"
        ".type gift_weights_text, @object\n"
        "gift_weights_text:\n"
        ".incbin \"players/gift.weights\"\n"
        ".byte 0\n"
        ".size gift_weights_text, . - gift_weights_text\n"
        ".previous\n");
