/* estnet_embed.c — the built-in hand-estimation network: players/estnet.weights as a
 * NUL-terminated string in the binary (as est_embed.c). Parsed and checked by estnet.c. */
__asm__(".section .rodata\n"
        ".global estnet_weights_text\n"
        ".type estnet_weights_text, @object\n"
        "estnet_weights_text:\n"
        ".incbin \"players/estnet.weights\"\n"
        ".byte 0\n"
        ".size estnet_weights_text, . - estnet_weights_text\n"
        ".previous\n");
