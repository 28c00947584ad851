/* estseq_embed.c — the built-in sequence model: players/estseq.weights as a NUL-terminated
 * string in the binary (as estnet_embed.c). Parsed and checked by estseq.c. */
__asm__(".section .rodata\n"
        ".global estseq_weights_text\n"
        ".type estseq_weights_text, @object\n"
        "estseq_weights_text:\n"
        ".incbin \"players/estseq.weights\"\n"
        ".byte 0\n"
        ".size estseq_weights_text, . - estseq_weights_text\n"
        ".previous\n");
