// Transfer completion times of a flow set under SimGrid's plain max-min network model, to
// cross-check ClusterBench's MaxMinNetwork (tests/core/tst_simgrid.cpp).
//
// Input (file given as the first argument), whitespace separated:
//   links N   then N bandwidths in bytes per second (one SimGrid link per directed link)
//   flows M   then per flow: BYTES K LINK_1 ... LINK_K (K >= 1)
// Every flow gets its own pair of hosts and a one-way route over its links, and all flows
// start at time 0. Output: one completion time per flow, in input order, %.17g.
//
// Model: CM02 (max-min without TCP corrections), no cross traffic, TCP-gamma 0 (no window
// bound), weight-S 0 (no RTT weighting), latency 0, bandwidth and latency factors 1.

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

int main(int argc, char **argv)
{
    sg4::Engine engine(&argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: cb_simgrid_maxmin FLOWS.txt\n");
        return 2;
    }
    sg4::Engine::set_config("network/model:CM02");
    sg4::Engine::set_config("network/crosstraffic:0");
    sg4::Engine::set_config("network/TCP-gamma:0");
    sg4::Engine::set_config("network/weight-S:0");
    sg4::Engine::set_config("network/latency-factor:1");
    sg4::Engine::set_config("network/bandwidth-factor:1");
    sg4::Engine::set_config("maxmin/precision:1e-12");
    sg4::Engine::set_config("surf/precision:1e-12");

    std::ifstream in(argv[1]);
    std::string word;
    std::size_t n = 0, m = 0;
    in >> word >> n;
    std::vector<double> bandwidth(n);
    for (double &b : bandwidth)
        in >> b;
    in >> word >> m;
    std::vector<std::uint64_t> bytes(m);
    std::vector<std::vector<std::size_t>> routes(m);
    for (std::size_t f = 0; f < m; ++f) {
        std::size_t k = 0;
        in >> bytes[f] >> k;
        routes[f].resize(k);
        for (std::size_t &l : routes[f])
            in >> l;
    }
    if (!in) {
        std::fprintf(stderr, "cb_simgrid_maxmin: malformed input\n");
        return 2;
    }

    auto *zone = sg4::create_full_zone("cluster");
    std::vector<sg4::Link *> links;
    for (std::size_t l = 0; l < n; ++l)
        links.push_back(zone->create_link("l" + std::to_string(l), bandwidth[l])
                            ->set_latency(0)
                            ->seal());
    std::vector<sg4::Host *> src(m), dst(m);
    for (std::size_t f = 0; f < m; ++f) {
        src[f] = zone->create_host("s" + std::to_string(f), 1e9)->seal();
        dst[f] = zone->create_host("d" + std::to_string(f), 1e9)->seal();
        std::vector<sg4::LinkInRoute> route;
        for (std::size_t l : routes[f])
            route.emplace_back(links[l]);
        zone->add_route(src[f]->get_netpoint(), dst[f]->get_netpoint(), nullptr, nullptr, route,
                        false);
    }
    zone->seal();

    std::vector<double> finish(m, -1);
    for (std::size_t f = 0; f < m; ++f)
        sg4::Actor::create("a" + std::to_string(f), src[f], [f, &src, &dst, &bytes, &finish] {
            sg4::Comm::sendto(src[f], dst[f], bytes[f]);
            finish[f] = sg4::Engine::get_clock();
        });
    engine.run();
    for (double t : finish)
        std::printf("%.17g\n", t);
    return 0;
}
