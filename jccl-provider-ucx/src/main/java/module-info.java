/**
 * A jccl verbs provider over libucp (UCX), bound through the Foreign Function and Memory API: no
 * JNI library to build. On InfiniBand and RoCE UCX picks rc/dc/ud verbs, on one host cma and
 * shared memory, elsewhere tcp; this module maps the verbs SPI onto it.
 */
module dev.jccl.provider.ucx {
    requires dev.jccl;

    provides dev.jccl.verbs.VerbsProvider with dev.jccl.provider.ucx.UcxProvider;
}
