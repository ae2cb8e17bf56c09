# C_max and the share of failures handled per sliding method, from a
# slidesim collisions.csv (docs/policies.md; bench/slidesim/policy_figures.sh):
#   gnuplot -e "csv='DIR/collisions.csv'; out='x.png'; ttl='…'; xstep=1" policy_methods.gp
# (xstep: the x tic spacing, automatic when not given)
# Worst C_max solid, average dashed; the lower panel is the share of the
# sequences still running at that failure that the method could handle.
set datafile separator ','
set terminal pngcairo size 900,750 noenhanced
set output out
methods = "0D 1D 2D hybrid(2D+1D+0D)"
set multiplot layout 2,1 title ttl
set lmargin 12
set rmargin 36
set key outside right top
if (exists("xstep")) set xtics xstep
set grid
set ylabel 'C_max (messages on the busiest link)'
set yrange [0:*]
plot for [i=1:4] csv using 2:(strcol(1) eq word(methods, i) ? column(7) : 1/0) with linespoints lw 2 dt 1 lc i \
         title word(methods, i).' worst', \
     for [i=1:4] csv using 2:(strcol(1) eq word(methods, i) ? column(6) : 1/0) with lines lw 2 dt 2 lc i \
         title word(methods, i).' average'
set ylabel '% handled'
set xlabel 'failed hosts'
set yrange [0:105]
plot for [i=1:4] csv using 2:(strcol(1) eq word(methods, i) && column(3) + column(4) > 0 ? \
         100.0 * column(3) / (column(3) + column(4)) : 1/0) with linespoints lw 2 lc i title word(methods, i)
unset multiplot
